public import CastCore
public import CastTime

/// The behaviour of one virtual Cast device, without any I/O.
///
/// The engine owns the device's whole platform state: virtual connections, heartbeats, the
/// running receiver app, the device volume and the media player. Its owner feeds it events
/// (a connection opened or closed, a `CastMessage` received, time passing) and performs the
/// ``DeviceAction``s each event returns: sending messages, closing connections, logging.
///
/// Time comes only from the instants passed in, so the engine is deterministic: tests drive
/// it with a manual clock. After every call the owner reads ``nextDeadline`` and calls
/// ``tick(at:)`` when that instant comes (the end of buffering or of a media item, an ad
/// clip, a heartbeat). Calling an event method later than a deadline is fine: the engine
/// first catches up on everything due. An instant earlier than one already seen counts as
/// the later one.
///
/// ```swift
/// var engine = VirtualDeviceEngine(configuration: configuration, at: now)
/// var actions = engine.connectionOpened(1, at: now)
/// actions += engine.received(message, from: 1, at: now)
/// for action in actions { perform(action) }
/// if let deadline = engine.nextDeadline { schedule(deadline) }
/// ```
///
/// Bad input never stops the device: malformed JSON, unknown namespaces or destinations and
/// messages without a virtual connection get the protocol's error reply when there is a
/// request to answer, and are otherwise dropped with a ``DeviceAction/log(_:)`` action.
///
/// The owner keeps the engine under one lock and performs the actions after leaving it.
public struct VirtualDeviceEngine: Sendable {
    /// The configuration the device was created with.
    public private(set) var configuration: VirtualDeviceConfiguration
    /// Behaviour faults, switched on and off by the owner at any time.
    public var faults: DeviceFaults

    var connections: [ConnectionID: SenderConnection] = [:]
    var application: RunningApplication?
    var deviceVolume: Volume
    /// The HDMI-CEC state, for devices with an HDMI input.
    var inputState: DeviceInputState?
    var identifiers: IdentifierGenerator
    /// The latest instant the engine has seen.
    var clock: DeviceInstant
    /// The speaker groups the device is, or belongs to, as they are now.
    var multizone: MultizoneState
    /// The DER of the TLS certificate the device presents, which device-auth answers sign.
    public var tlsCertificateDER: [UInt8] = []

    /// The device's platform endpoint.
    static let platformID = "receiver-0"

    /// Creates a device, with its idle screen running.
    /// - Parameters:
    ///   - configuration: identity, apps, volume and timing.
    ///   - now: the current instant on the owner's clock.
    public init(configuration: VirtualDeviceConfiguration, at now: DeviceInstant) {
        self.configuration = configuration
        self.faults = .none
        self.clock = now
        self.identifiers = IdentifierGenerator(seed: configuration.randomSeed ?? UInt64.random(in: .min ... .max))
        let level = configuration.volume.level.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil } ?? 1
        self.deviceVolume = Volume(level: level, muted: configuration.volume.muted ?? false)
        self.inputState = configuration.profile.inputState
        self.multizone = MultizoneState(configuration.multizone)
        // The generic profile reports the HDMI-CEC state of video devices only.
        if configuration.profile.kind == .generic, !configuration.identity.capabilities.contains(.videoOut) {
            self.inputState = nil
        }
        startIdleScreen()
        recomputeGroupVolume()
    }

    // MARK: Events

    /// A sender opened a TLS connection.
    public mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        if connections[id] != nil {
            actions.append(.log(DeviceLogEntry(level: .warning, message: "connection reopened", metadata: id.metadata)))
        }
        connections[id] = SenderConnection(openedAt: clock)
        actions.append(.log(DeviceLogEntry(level: .debug, message: "connection opened", metadata: id.metadata)))
        return actions
    }

    /// A sender's connection closed (by the sender, or after a network error).
    public mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        let connectedBefore = runningApplication?.senderConnected
        if connections.removeValue(forKey: id) != nil {
            actions.append(.log(DeviceLogEntry(level: .debug, message: "connection closed", metadata: id.metadata)))
        }
        return actions + senderConnectedUpdate(since: connectedBefore)
    }

    /// A `RECEIVER_STATUS` broadcast when the running app's `senderConnected` changed, as
    /// newer firmware sends when the first sender connects to an app or the last one leaves.
    func senderConnectedUpdate(since before: Bool?) -> [DeviceAction] {
        guard configuration.profile.reportsSenderConnected, runningApplication?.senderConnected != before,
            before != nil
        else { return [] }
        return receiverStatusUpdate(requestID: 0, requester: nil)
    }

    /// A message arrived on a connection: any namespace, any endpoint.
    public mutating func received(
        _ message: CastMessage,
        from id: ConnectionID,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        clock = max(clock, now)
        var actions: [DeviceAction] = []
        if connections[id] == nil {
            connections[id] = SenderConnection(openedAt: clock)
            actions.append(
                .log(
                    DeviceLogEntry(level: .warning, message: "message on an unknown connection", metadata: id.metadata)
                )
            )
        }
        // The message proves the sender alive before any liveness check runs.
        connections[id]?.lastReceived = clock
        connections[id]?.lastPingSent = nil
        actions += begin(at: clock)
        let playbackBefore = groupPlaybackSession
        actions += route(message, from: id)
        actions += advanceTimeline()
        actions += groupPlaybackUpdate(since: playbackBefore)
        return actions
    }

    /// Time passed; call it at ``nextDeadline`` (calling it earlier does nothing harmful).
    public mutating func tick(at now: DeviceInstant) -> [DeviceAction] {
        begin(at: now)
    }

    /// The next instant at which ``tick(at:)`` has work, or `nil` when nothing is scheduled.
    public var nextDeadline: DeviceInstant? {
        var deadline = application?.player?.nextDeadline
        func consider(_ instant: DeviceInstant) {
            if deadline.map({ instant < $0 }) ?? true { deadline = instant }
        }
        for connection in connections.values {
            if let interval = pingInterval { consider(connection.nextPing(interval: interval)) }
            if let timeout = livenessTimeout { consider(connection.lastReceived + timeout) }
        }
        return deadline
    }

    /// Restarts the running app with a new session and transport id (a fault): its media
    /// session ends, senders connected to the old transport get `CLOSE` from it, and every
    /// sender gets the new `RECEIVER_STATUS`.
    public mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        guard let running = application else {
            actions.append(.log(DeviceLogEntry(level: .info, message: "no application to restart")))
            return actions
        }
        let playbackBefore = groupPlaybackSession
        actions += stopApplication()
        startApplication(running.definition, appType: running.appType, launchCredentials: running.launchCredentials)
        actions += groupPlaybackUpdate(since: playbackBefore)
        actions.append(
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "application restarted",
                    metadata: ["cast.app-id": running.definition.appID]
                )
            )
        )
        return actions + receiverStatusUpdate(requestID: 0, requester: nil) + [.appsChanged, .receiverStatusChanged]
    }

    /// The TV switched input or went in or out of standby (``DeviceInputState``): every
    /// sender gets the new `RECEIVER_STATUS`. A device without an HDMI input (a speaker, a
    /// dongle) has no such state and only logs the request.
    public mutating func setInputState(_ state: DeviceInputState, at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        guard inputState != nil else {
            actions.append(.log(DeviceLogEntry(level: .info, message: "no HDMI input: input state unchanged")))
            return actions
        }
        guard inputState != state else { return actions }
        inputState = state
        actions.append(
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "input state changed",
                    metadata: ["cast.active-input": "\(state.isActiveInput)", "cast.standby": "\(state.isStandBy)"]
                )
            )
        )
        return actions + receiverStatusUpdate(requestID: 0, requester: nil) + [.receiverStatusChanged]
    }

    // MARK: State

    /// The receiver status as `GET_STATUS` would report it now.
    public var receiverStatus: ReceiverStatus {
        let profile = configuration.profile
        let level = deviceVolume.level.map { profile.reportsFloat32Volume ? DeviceProfile.float32($0) : $0 }
        return ReceiverStatus(
            applications: runningApplication.map { [$0] } ?? (profile.listsApplicationsWhenIdle ? [] : nil),
            isActiveInput: inputState?.isActiveInput,
            isStandBy: inputState?.isStandBy,
            userEq: profile.userEq,
            volume: DeviceVolume(
                controlType: profile.volumeControlType,
                level: level,
                muted: deviceVolume.muted,
                stepInterval: profile.volumeStepInterval
            )
        )
    }

    /// The running app (the idle screen included), as `RECEIVER_STATUS` lists it.
    public var runningApplication: ReceiverApplication? {
        if let follower = multizone.follower, application?.definition.isIdleScreen ?? true {
            return follower.status
        }
        guard let application else { return nil }
        var status = application.status
        if configuration.profile.reportsSenderConnected {
            status.senderConnected = connections.values.contains {
                !$0.senders(connectedTo: application.transportID).isEmpty
            }
        }
        return status
    }

    /// The HDMI-CEC state (`isActiveInput`, `isStandBy`), or `nil` for a device without an
    /// HDMI input.
    public var currentInputState: DeviceInputState? { inputState }

    /// The Cast Connect credentials the running app received last: from the LAUNCH that
    /// started it, or from a later LAUNCH of the same app (a sender joining with its launch
    /// credentials); `nil` when none came.
    public var runningApplicationCredentials: CredentialsData? { application?.launchCredentials }

    /// The media status as media `GET_STATUS` would report it at `now`, or `nil` without a
    /// media session.
    public func mediaStatus(at now: DeviceInstant) -> MediaStatus? {
        application?.player?.status(at: max(now, clock))
    }

    /// The number of connections the engine tracks.
    public var connectionCount: Int { connections.count }

    // MARK: Time

    /// Moves the clock to `now` and handles everything due.
    mutating func begin(at now: DeviceInstant) -> [DeviceAction] {
        clock = max(clock, now)
        return advanceTimeline() + checkHeartbeats()
    }

    /// Handles the media events due at the clock.
    mutating func advanceTimeline() -> [DeviceAction] {
        guard var player = application?.player else { return [] }
        let outputs = player.advance(to: clock)
        application?.player = player
        return actions(for: outputs)
    }

    var pingInterval: Duration? {
        configuration.pingInterval > .zero ? configuration.pingInterval : nil
    }

    var livenessTimeout: Duration? {
        configuration.livenessTimeout.flatMap { $0 > .zero ? $0 : nil }
    }
}

extension ConnectionID {
    var metadata: [String: String] { ["cast.connection": description] }
}
