import CastCore

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
/// first catches up on everything due.
///
/// ```swift
/// var engine = VirtualDeviceEngine(configuration: configuration, at: now)
/// var actions = engine.connectionOpened(1, at: now)
/// actions += engine.received(message, from: 1, at: now)
/// for action in actions { perform(action) }
/// if let deadline = engine.nextDeadline { schedule(deadline) }
/// ```
///
/// The owner keeps the engine under one lock and performs the actions after leaving it.
public struct VirtualDeviceEngine: Sendable {
    /// The configuration the device was created with.
    public private(set) var configuration: VirtualDeviceConfiguration
    /// Behaviour faults, switched on and off by the owner at any time.
    public var faults: DeviceFaults

    /// Creates a device, with its idle screen running.
    /// - Parameters:
    ///   - configuration: identity, apps, volume and timing.
    ///   - now: the current instant on the owner's clock.
    public init(configuration: VirtualDeviceConfiguration, at now: DeviceInstant) {
        self.configuration = configuration
        self.faults = .none
    }

    // MARK: Events

    /// A sender opened a TLS connection.
    public mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        []
    }

    /// A sender's connection closed (by the sender, or after a network error).
    public mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        []
    }

    /// A message arrived on a connection: any namespace, any endpoint.
    public mutating func received(
        _ message: CastMessage,
        from id: ConnectionID,
        at now: DeviceInstant
    ) -> [DeviceAction] {
        []
    }

    /// Time passed; call it at ``nextDeadline`` (calling it earlier does nothing harmful).
    public mutating func tick(at now: DeviceInstant) -> [DeviceAction] {
        []
    }

    /// The next instant at which ``tick(at:)`` has work, or `nil` when nothing is scheduled.
    public var nextDeadline: DeviceInstant? { nil }

    /// Restarts the running app with a new session and transport id (a fault): its media
    /// session ends, senders connected to the old transport get `CLOSE` from it, and every
    /// sender gets the new `RECEIVER_STATUS`.
    public mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
        []
    }

    // MARK: State

    /// The receiver status as `GET_STATUS` would report it now.
    public var receiverStatus: ReceiverStatus { ReceiverStatus() }

    /// The running app (the idle screen included), as `RECEIVER_STATUS` lists it.
    public var runningApplication: ReceiverApplication? { nil }

    /// The media status as media `GET_STATUS` would report it at `now`, or `nil` without a
    /// media session.
    public func mediaStatus(at now: DeviceInstant) -> MediaStatus? { nil }

    /// The number of connections the engine tracks.
    public var connectionCount: Int { 0 }
}
