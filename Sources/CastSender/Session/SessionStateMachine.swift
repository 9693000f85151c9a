/// The lifecycle of one session, free of I/O: which listener events fire, in which order,
/// and when to connect, reconnect or close.
///
/// Each event method returns the actions for the owner to perform, in order.
struct SessionStateMachine: Sendable {
    enum State: Hashable, Sendable {
        case idle
        case starting
        case connected
        /// Waiting to reconnect; `attempt` counts the reconnection attempts made so far.
        case suspended(attempt: Int, automatic: Bool)
        case resuming(attempt: Int)
        case ending
        case ended
    }

    /// A listener notification.
    enum Notification: Hashable, Sendable {
        case willStart
        case didStart
        case didFailToStart(CastError)
        case willEnd
        case didEnd(CastError?)
        case didSuspend(SessionSuspendReason)
        case willResume
        case didResume
        case didFailToResume(CastError)
    }

    enum Action: Hashable, Sendable {
        case notify(Notification)
        /// Run the start sequence (connect, launch or join).
        case runStart
        /// Run the resume sequence (connect, join the same receiver session).
        case runResume
        /// Wait, then call ``SessionStateMachine/reconnectDue()``.
        case scheduleReconnect(after: Duration)
        /// Stop waiting for a reconnection.
        case cancelReconnect
        /// Close the connection without telling the receiver app to stop.
        case closeConnection
        /// Leave the session (CLOSE the app, optionally STOP it), then call
        /// ``SessionStateMachine/endCompleted()``.
        case runEnd(stopReceiverApp: Bool)
        /// Forget the persisted session.
        case clearPersistedSession
        /// Remember the session for resumption.
        case persistSession
    }

    private(set) var state: State = .idle
    /// Whether the session ever reached ``State/connected`` in this process.
    private(set) var everConnected = false
    let backoff: ReconnectBackoff
    private var random: @Sendable () -> Double

    init(
        backoff: ReconnectBackoff = ReconnectBackoff(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.backoff = backoff
        self.random = random
    }

    var isActive: Bool {
        switch state {
        case .idle, .ending, .ended: false
        default: true
        }
    }

    // MARK: Start

    mutating func startRequested() -> [Action] {
        guard state == .idle else { return [] }
        state = .starting
        return [.notify(.willStart), .runStart]
    }

    mutating func startSucceeded() -> [Action] {
        guard state == .starting else { return [] }
        state = .connected
        everConnected = true
        return [.persistSession, .notify(.didStart)]
    }

    mutating func startFailed(_ error: CastError) -> [Action] {
        guard state == .starting else { return [] }
        state = .ended
        return [.closeConnection, .notify(.didFailToStart(error))]
    }

    // MARK: Suspend and resume

    /// The connection failed or the heartbeat stopped: suspend and reconnect automatically.
    mutating func connectionLost(_ reason: SessionSuspendReason) -> [Action] {
        switch state {
        case .connected:
            state = .suspended(attempt: 0, automatic: true)
            return [
                .closeConnection, .notify(.didSuspend(reason)),
                .scheduleReconnect(after: backoff.delay(forAttempt: 0, random: random())),
            ]
        case .resuming(let attempt):
            return resumeAttemptFailed(
                CastError(.disconnected, "the connection dropped while resuming"),
                attempt: attempt
            )
        default:
            return []
        }
    }

    /// The app suspends the session itself; it stays suspended until ``resumeRequested()``.
    mutating func suspendRequested(_ reason: SessionSuspendReason) -> [Action] {
        guard state == .connected else { return [] }
        state = .suspended(attempt: 0, automatic: false)
        return [.closeConnection, .notify(.didSuspend(reason))]
    }

    /// Resume now: a suspended session, or (from ``State/idle``) a session persisted by an
    /// earlier process.
    mutating func resumeRequested() -> [Action] {
        switch state {
        case .idle, .suspended:
            state = .resuming(attempt: 0)
            return [.cancelReconnect, .notify(.willResume), .runResume]
        default:
            return []
        }
    }

    mutating func reconnectDue() -> [Action] {
        guard case .suspended(let attempt, true) = state else { return [] }
        state = .resuming(attempt: attempt)
        return attempt == 0 ? [.notify(.willResume), .runResume] : [.runResume]
    }

    mutating func resumeSucceeded() -> [Action] {
        guard case .resuming = state else { return [] }
        state = .connected
        everConnected = true
        return [.persistSession, .notify(.didResume)]
    }

    /// A resume attempt failed. `retry` is false when retrying cannot help (the receiver app
    /// is gone).
    mutating func resumeFailed(_ error: CastError, retry: Bool) -> [Action] {
        guard case .resuming(let attempt) = state else { return [] }
        if !retry { return giveUpResuming(error) }
        return resumeAttemptFailed(error, attempt: attempt)
    }

    private mutating func resumeAttemptFailed(_ error: CastError, attempt: Int) -> [Action] {
        let next = attempt + 1
        guard next < backoff.maximumAttempts else { return giveUpResuming(error) }
        state = .suspended(attempt: next, automatic: true)
        return [.closeConnection, .scheduleReconnect(after: backoff.delay(forAttempt: next, random: random()))]
    }

    private mutating func giveUpResuming(_ error: CastError) -> [Action] {
        state = .ended
        var actions: [Action] = [.closeConnection, .clearPersistedSession, .notify(.didFailToResume(error))]
        if everConnected { actions.append(.notify(.didEnd(error))) }
        return actions
    }

    // MARK: End

    mutating func endRequested(stopReceiverApp: Bool) -> [Action] {
        switch state {
        case .connected:
            state = .ending
            return [.notify(.willEnd), .clearPersistedSession, .runEnd(stopReceiverApp: stopReceiverApp)]
        case .suspended, .resuming:
            state = .ended
            return [
                .cancelReconnect, .notify(.willEnd), .clearPersistedSession, .closeConnection,
                .notify(.didEnd(nil)),
            ]
        case .starting:
            state = .ended
            return [
                .closeConnection, .notify(.didFailToStart(CastError(.cancelled, "the session start was cancelled"))),
            ]
        default:
            return []
        }
    }

    mutating func endCompleted() -> [Action] {
        guard state == .ending else { return [] }
        state = .ended
        return [.closeConnection, .notify(.didEnd(nil))]
    }

    /// The receiver app went away under the session (stopped by another sender, or replaced
    /// by another app).
    mutating func applicationStopped(_ error: CastError) -> [Action] {
        switch state {
        case .connected, .suspended, .resuming:
            state = .ended
            return [
                .cancelReconnect, .notify(.willEnd), .clearPersistedSession, .closeConnection,
                .notify(.didEnd(error)),
            ]
        default:
            return []
        }
    }
}
