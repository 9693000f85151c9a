/// One session, free of I/O: its lifecycle (which listener events fire, in which order, and
/// when to connect, reconnect or close) and what it knows of the receiver (the app it
/// attached to, the device volume and status text, a volume change in flight, how the device
/// authenticated, why the connection was last lost).
///
/// Each event method returns the actions for the owner to perform, in order. The owner,
/// ``CastSession``, keeps only the handles the machine cannot: the connection, the channels,
/// the reconnection timer and the running task.
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

    /// What a RECEIVER_STATUS changed, for the owner to report.
    struct ReceiverStatusChange: Sendable {
        /// The new device volume, when it changed.
        var volume: DeviceVolume?
        /// The new status text (`nil` inside when it went away), when it changed.
        var statusText: String??
        /// The session's receiver app is no longer listed while connected: the owner runs
        /// ``SessionStateMachine/applicationStopped(_:)``.
        var applicationStopped = false
    }

    private(set) var state: State = .idle
    /// Whether the session ever reached ``State/connected`` in this process.
    private(set) var everConnected = false
    let backoff: ReconnectBackoff
    private var random: @Sendable () -> Double

    /// The receiver app the session attached to, as last reported.
    private(set) var application: ReceiverApplication?
    /// The receiver app's session id (`sessionId`), once known (or as persisted).
    private(set) var applicationSessionID: String?
    /// The device volume as last reported.
    private(set) var volume: DeviceVolume?
    /// The status text of the session's app (or of an app with the options' app id).
    private(set) var statusText: String?
    /// The level of the newest SET_VOLUME still in flight, and its number.
    private(set) var pendingVolume: (level: Double, serial: Int)?
    private var volumeSerial = 0
    /// Why the connection was last lost.
    private(set) var lastLossError: CastError?
    /// How the device on the current (or last) connection authenticated.
    private(set) var authentication: DeviceAuthenticationResult?

    init(
        backoff: ReconnectBackoff = ReconnectBackoff(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        applicationSessionID: String? = nil
    ) {
        self.backoff = backoff
        self.random = random
        self.applicationSessionID = applicationSessionID
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

    /// The connection failed or the heartbeat stopped (`error` says how): suspend and
    /// reconnect automatically.
    mutating func connectionLost(_ reason: SessionSuspendReason, error: CastError? = nil) -> [Action] {
        if let error { lastLossError = error }
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

    // MARK: What the session knows of the receiver

    /// The session attached to `app` (launched, joined or found again on resume).
    mutating func applicationAttached(_ app: ReceiverApplication) {
        application = app
        applicationSessionID = app.sessionID
    }

    /// The device on the new connection authenticated as `result`.
    mutating func deviceAuthenticated(_ result: DeviceAuthenticationResult) {
        authentication = result
    }

    /// A SET_VOLUME to `level` goes out; returns its number for ``volumeChangeSettled(_:)``.
    mutating func volumeChangeRequested(level: Double) -> Int {
        volumeSerial += 1
        pendingVolume = (level, volumeSerial)
        return volumeSerial
    }

    /// The SET_VOLUME numbered `serial` was answered or failed; a newer one stays pending.
    mutating func volumeChangeSettled(_ serial: Int) {
        if pendingVolume?.serial == serial { pendingVolume = nil }
    }

    /// A RECEIVER_STATUS (wire numbers already clamped) arrived: takes its volume, the status
    /// text of the session's app (or, before one is known, of the first app with
    /// `receiverApplicationID`) and the app's newest description.
    mutating func receiverStatusReceived(
        _ status: ReceiverStatus,
        receiverApplicationID: String
    ) -> ReceiverStatusChange {
        var change = ReceiverStatusChange()
        if let reported = status.volume, reported != volume {
            volume = reported
            change.volume = reported
        }
        let ownApp = status.applications?.first { $0.sessionID != nil && $0.sessionID == applicationSessionID }
        let text = (ownApp ?? status.applications?.first { $0.appID == receiverApplicationID })?.statusText
        if text != statusText {
            statusText = text
            change.statusText = .some(text)
        }
        if let ownApp { application = ownApp }
        change.applicationStopped = state == .connected && applicationSessionID != nil && ownApp == nil
        return change
    }

    /// Whether `source` is the transport of the session's app while connected: a CLOSE from it
    /// means the app went away.
    func isApplicationTransport(_ source: String) -> Bool {
        application?.transportID == source && state == .connected
    }
}
