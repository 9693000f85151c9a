import CastSync

/// The state of one ``CastClock/sleep(for:)`` call: resumed exactly once, by the timer or
/// by cancellation, whichever comes first.
final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: CastTimer?
        var finished = false
    }

    private let state = Locked(State())

    /// Stores the continuation; returns `false` when the sleep was already cancelled.
    func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        state.withLock { state in
            if state.finished { return false }
            state.continuation = continuation
            return true
        }
    }

    /// Keeps the timer so cancellation can stop it.
    func attach(_ timer: CastTimer) {
        let cancelNow = state.withLock { state in
            if state.finished { return true }
            state.timer = timer
            return false
        }
        if cancelNow { timer.cancel() }
    }

    /// Resumes the sleeper once; later calls do nothing.
    func finish(with error: (any Error)?) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, CastTimer?) in
            if state.finished { return (nil, nil) }
            state.finished = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        if error != nil { timer?.cancel() }
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume()
        }
    }
}
