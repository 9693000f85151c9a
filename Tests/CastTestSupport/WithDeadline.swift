/// A test step ran out of time, or a test gave up waiting for something.
package struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What did not happen in time.
    package let what: String

    /// Creates the error for `what`.
    package init(what: String = "the operation") {
        self.what = what
    }

    package var description: String { "deadline exceeded: \(what)" }
}

/// Runs `body`, failing with ``DeadlineExceeded`` after `timeout` (times
/// ``TestTiming/slowdown``).
///
/// A task group waits for all its children, so a body stuck in a wait that ignores
/// cancellation would keep the group open past the deadline: `onTimeout` must end that wait
/// (close the connection the body reads from, for instance).
/// - Parameters:
///   - timeout: how long `body` may take.
///   - what: what `body` waits for, for the error.
///   - onTimeout: ends whatever `body` waits on, when the deadline passes.
///   - body: the step.
package func withDeadline<T: Sendable>(
    _ timeout: Duration,
    _ what: String = "the operation",
    onTimeout: @escaping @Sendable () -> Void = {},
    body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            // The deadline itself: the one timer behind every hang guard of the tests.
            try? await Task.sleep(for: TestTiming.scaled(timeout))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            onTimeout()
            throw DeadlineExceeded(what: what)
        }
        return value
    }
}
