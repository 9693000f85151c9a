import CastCore
public import CastSender

/// The volume of one device, as a ``DeviceVolumeController`` reads and changes it.
///
/// ``init(context:)`` follows the device of the context's current session. Any other
/// source of a device's volume (for example one member of a speaker group, whose level
/// changes through its own requests) makes one with ``init(state:updates:setLevel:step:setMuted:)``,
/// and each gets its own controller.
public struct DeviceVolumeControl: Sendable {
    /// The volume now.
    public var state: @Sendable () -> DeviceVolumeState
    /// A stream that yields whenever the volume may have changed.
    public var updates: @Sendable () -> AsyncStream<Void>
    /// Sets the level, 0 to 1.
    public var setLevel: @Sendable (Double) -> CastRequest?
    /// Moves the level by whole steps of the device's step interval.
    public var step: @Sendable (Int) -> CastRequest?
    /// Mutes or unmutes.
    public var setMuted: @Sendable (Bool) -> CastRequest?

    /// Creates a control from closures.
    public init(
        state: @escaping @Sendable () -> DeviceVolumeState,
        updates: @escaping @Sendable () -> AsyncStream<Void>,
        setLevel: @escaping @Sendable (Double) -> CastRequest?,
        step: @escaping @Sendable (Int) -> CastRequest?,
        setMuted: @escaping @Sendable (Bool) -> CastRequest?
    ) {
        self.state = state
        self.updates = updates
        self.setLevel = setLevel
        self.step = step
        self.setMuted = setMuted
    }

    /// The device of `context`'s current session: RECEIVER_STATUS volume, receiver
    /// SET_VOLUME. Unavailable while no session is connected.
    public init(context: CastContext) {
        let manager = context.sessionManager
        let connected: @Sendable () -> CastSession? = {
            guard let session = manager.currentSession, session.connectionState == .connected else { return nil }
            return session
        }
        self.init(
            state: {
                guard let session = connected(), let volume = session.deviceVolume else { return .unavailable }
                return DeviceVolumeState(session: session, volume: volume)
            },
            updates: {
                let events = manager.events()
                return AsyncStream { continuation in
                    let task = Task {
                        for await _ in events { continuation.yield(()) }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            },
            setLevel: { level in connected()?.setDeviceVolume(min(max(level, 0), 1)) },
            step: { steps in connected()?.stepDeviceVolume(by: steps) },
            setMuted: { muted in connected()?.setDeviceMuted(muted) }
        )
    }
}

extension DeviceVolumeState {
    init(session: CastSession, volume: DeviceVolume) {
        self.init(volume: volume, pendingLevel: session.pendingDeviceVolume, deviceName: session.device.friendlyName)
    }

    /// The state for the volume a device reported, with the newest change still in flight:
    /// levels out of range or not finite never reach the control.
    init(volume: DeviceVolume, pendingLevel: Double?, deviceName: String?) {
        let fixed = volume.controlType == .fixed
        let reported = volume.level.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil } ?? 0
        let step = volume.stepInterval.flatMap { $0.isFinite && $0 > 0.001 ? min($0, 1) : nil } ?? 0.05
        self.init(
            level: fixed ? reported : (pendingLevel ?? reported),
            isMuted: volume.muted ?? false,
            stepInterval: step,
            isFixedVolume: fixed,
            inputEnabled: !fixed,
            deviceName: deviceName
        )
    }
}
