import Synchronization

/// Lets a test await a condition on state that other threads change, without polling: the
/// code that changes the state calls ``notify()``, and ``wait(until:)`` checks its condition
/// again after each change, the moment it happens.
///
/// A fake device notifies after each message it handles, a process helper after each chunk
/// of output and at the exit, a counter after each increment: the waiter wakes only then,
/// so a wait takes as long as the event takes, never a polling period, and a loaded machine
/// makes it later, not wrong.
package final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Creates a signal.
    package init() {}

    /// Tells the waiters something changed: each checks its condition again.
    package func notify() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Suspends until `condition` holds (checked now and after each ``notify()``) or the task
    /// is cancelled.
    /// - Returns: whether `condition` held.
    @discardableResult
    package func wait(until condition: () -> Bool) async -> Bool {
        while !Task.isCancelled {
            // The generation read before the check: a change made during the check is seen.
            let generation = state.withLock { $0.generation }
            if condition() { return true }
            await waitForChange(after: generation)
        }
        return condition()
    }

    /// Suspends until `condition` holds, failing with ``DeadlineExceeded`` after `timeout`: a
    /// hang guard (``TestTiming/hangGuard`` by default), never reached by a passing test.
    package func wait(
        until what: String,
        within timeout: Duration = TestTiming.hangGuard,
        _ condition: @escaping @Sendable () -> Bool
    ) async throws {
        try await withDeadline(timeout, what) { [self] in
            guard await wait(until: condition) else { throw DeadlineExceeded(what: what) }
        }
    }

    /// Counts the changes so far: read it before checking a condition, then
    /// ``waitForChange(after:)`` returns at once if a change came in between.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Suspends until a change after `generation` (at once if one came already) or until the
    /// task is cancelled.
    package func waitForChange(after generation: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }
}

/// A count that a test can await reaching a value (connections seen, requests served).
package final class WatchedCount: Sendable {
    private let count = Mutex(0)
    /// Notified at each change of the count.
    package let changes = ChangeSignal()

    /// Creates a count at 0.
    package init() {}

    /// The count now.
    package var value: Int { count.withLock { $0 } }

    /// Adds `delta` (which may be negative) and wakes the waiters.
    package func add(_ delta: Int = 1) {
        count.withLock { $0 += delta }
        changes.notify()
    }

    /// Waits until `condition` holds of the count, or fails after `timeout`.
    package func wait(
        until what: String,
        within timeout: Duration = TestTiming.hangGuard,
        _ condition: @escaping @Sendable (Int) -> Bool
    ) async throws {
        try await changes.wait(until: what, within: timeout) { [self] in condition(value) }
    }
}
