import Foundation
import Glibc

/// The time limit of a test step ran out.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var what: String
    var description: String { "deadline exceeded: \(what)" }
}

/// Runs `body`, cancelling it and throwing when it takes longer than `seconds`.
func withDeadline<T: Sendable>(
    _ seconds: Double,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(what: what)
        }
        return value
    }
}
