import CastCore
public import CastSender
import CastSync
public import Observation

/// A device volume control (as `GCKUIDeviceVolumeController`): the level and mute state of
/// one device, volume up and down by the device's `stepInterval`, a mute toggle, and a
/// slider; disabled for fixed-volume devices.
///
/// The stop-casting dialog (``CastButtonModel/volumeController``) and the expanded controller
/// (``ExpandedControllerModel/State/deviceVolume``) show one for the session's device.
///
/// ```swift
/// let volume = DeviceVolumeController(context: context)
/// for await state in volume.updates() { redraw(state.percent, state.isMuted, state.inputEnabled) }
/// volume.volumeUp()
/// volume.toggleMuted()
/// ```
public final class DeviceVolumeController: Observable, Sendable {
    private let control: DeviceVolumeControl
    private let logger: CastLogger
    private let last = Locked(DeviceVolumeState.unavailable)
    private let broadcaster = StateBroadcaster<DeviceVolumeState>()
    private let tasks = OwnedTasks()

    /// Creates the control for the device of `context`'s current session.
    public convenience init(context: CastContext) {
        self.init(control: DeviceVolumeControl(context: context), logger: context.logger)
    }

    /// Creates the control for one device's volume.
    public init(control: DeviceVolumeControl, logger: CastLogger = .shared) {
        self.control = control
        self.logger = logger
        last.withLock { $0 = control.state() }
        let updates = control.updates()
        tasks.run { [weak self] in
            for await _ in updates {
                guard let self else { return }
                self.refresh()
            }
        }
        broadcaster.bind(self, \.state)
    }

    /// The current state.
    public var state: DeviceVolumeState {
        broadcaster.access(self, \.state)
        return control.state()
    }

    /// Every later state.
    public func updates() -> AsyncStream<DeviceVolumeState> { broadcaster.stream() }

    /// Publishes the state when it changed (call it after a change the control's updates do
    /// not cover).
    public func refresh() {
        let next = control.state()
        let changed = last.withLock { last -> Bool in
            defer { last = next }
            return last != next
        }
        if changed { broadcaster.publish(next) }
    }

    /// Sets the level (the slider), clamped to [0, 1].
    /// - Returns: the request, or `nil` when input is disabled.
    @discardableResult
    public func setVolume(_ level: Double) -> CastRequest? {
        guard state.inputEnabled, level.isFinite else { return nil }
        logger.log(.debug, .ui, "volume slider moved", metadata: ["cast.level": "\(level)"])
        return changed(control.setLevel(min(max(level, 0), 1)))
    }

    /// One step louder.
    /// - Returns: the request, or `nil` when input is disabled or the level is at the top.
    @discardableResult
    public func volumeUp() -> CastRequest? {
        guard state.canVolumeUp else { return nil }
        logger.log(.debug, .ui, "volume up")
        return changed(control.step(1))
    }

    /// One step quieter.
    /// - Returns: the request, or `nil` when input is disabled or the level is at the bottom.
    @discardableResult
    public func volumeDown() -> CastRequest? {
        guard state.canVolumeDown else { return nil }
        logger.log(.debug, .ui, "volume down")
        return changed(control.step(-1))
    }

    /// Mutes or unmutes.
    /// - Returns: the request, or `nil` when input is disabled.
    @discardableResult
    public func setMuted(_ muted: Bool) -> CastRequest? {
        guard state.inputEnabled else { return nil }
        logger.log(.debug, .ui, "mute changed", metadata: ["cast.muted": "\(muted)"])
        return changed(control.setMuted(muted))
    }

    /// The mute toggle.
    @discardableResult
    public func toggleMuted() -> CastRequest? { setMuted(!state.isMuted) }

    /// A change was sent: the level in flight shows at once, the reply updates it again.
    private func changed(_ request: CastRequest?) -> CastRequest? {
        refresh()
        if let request, request.inProgress {
            Task { [weak self] in
                _ = await request.waitForOutcome()
                self?.refresh()
            }
        }
        return request
    }
}
