import CastSync

/// A connection attempt its owner may abandon: cancelling closes the attempt's socket at once,
/// whether it is still connecting (a peer whose backlog is full never completes the TCP
/// handshake) or in its TLS handshake, instead of leaving the descriptor open until the
/// attempt's own timeout.
///
/// The phase being run registers how to abandon it (``setAbort(_:)``); ``cancel()`` runs
/// that, and makes every later registration fail so that a phase that starts after the
/// cancellation closes its socket before it is used.
final class ConnectAttempt: Sendable {
    private struct State {
        var isCancelled = false
        var abort: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Registers how to abandon the current phase (`nil` once the attempt is over).
    /// - Returns: `false` when the attempt was cancelled already: the caller closes what it
    ///   opened and fails.
    func setAbort(_ abort: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.abort = abort
            return true
        }
    }

    /// Abandons the attempt: the registered phase is aborted (its socket closed on its loop).
    func cancel() {
        let abort = state.withLock { state -> (@Sendable () -> Void)? in
            state.isCancelled = true
            defer { state.abort = nil }
            return state.abort
        }
        abort?()
    }

    /// The error an abandoned attempt completes with.
    static func cancelledError(_ address: String?) -> TCPError {
        TCPError(code: .closed, operation: "connect (cancelled)", address: address)
    }
}
