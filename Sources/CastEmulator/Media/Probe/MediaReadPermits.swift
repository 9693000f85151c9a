import CastSync

/// The media reads every virtual device of the process runs at once, together.
///
/// Each device runs at most ``DeviceServerOptions/mediaFetchLimit`` reads, and one read holds
/// at most the HTTP client's body limit (16 MiB + 1 KiB, the largest `moov`). A fleet of
/// devices driven by hostile senders would multiply that by the number of devices; these
/// permits bound it for the process: a read waits for one before it opens a connection (the
/// wait counts toward its deadline, and cancelling it leaves the line at once).
final class MediaReadPermits: Sendable {
    /// The permits of this process: 16 reads at once, so at most 272 MiB of media bodies.
    static let shared = MediaReadPermits(count: 16)

    private struct State {
        var available: Int
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(State(available: max(1, count)))
    }

    /// Runs `body` holding a permit, waiting for one first.
    /// - Throws: `CancellationError` when the task is cancelled while it waits; what `body`
    ///   throws.
    func withPermit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now = state.withLock { state -> Bool? in
                    if Task.isCancelled { return false }
                    if state.available > 0 {
                        state.available -= 1
                        return true
                    }
                    state.waiting.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        guard granted else { throw CancellationError() }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }

    /// Permits free now (for tests).
    var availableCount: Int { state.withLock { $0.available } }
}
