import CastCore

/// What a device volume control shows (as `GCKUIDeviceVolumeController`'s bound views).
public struct DeviceVolumeState: Sendable, Hashable {
    /// The level, 0 to 1: the newest change still in flight, else the level the device
    /// reported.
    public var level: Double
    /// Whether the device is muted.
    public var isMuted: Bool
    /// The step of ``DeviceVolumeController/volumeUp()`` and
    /// ``DeviceVolumeController/volumeDown()``: the device's `stepInterval`.
    public var stepInterval: Double
    /// Whether the device's volume is fixed (`controlType` `fixed`): the control is shown
    /// disabled.
    public var isFixedVolume: Bool
    /// Whether the level and the mute can be changed now: a device is connected, its volume
    /// is known and not fixed.
    public var inputEnabled: Bool
    /// The device's name, when known.
    public var deviceName: String?

    /// Creates a state.
    public init(
        level: Double,
        isMuted: Bool,
        stepInterval: Double,
        isFixedVolume: Bool,
        inputEnabled: Bool,
        deviceName: String? = nil
    ) {
        self.level = level
        self.isMuted = isMuted
        self.stepInterval = stepInterval
        self.isFixedVolume = isFixedVolume
        self.inputEnabled = inputEnabled
        self.deviceName = deviceName
    }

    /// No device: nothing to control.
    public static let unavailable = DeviceVolumeState(
        level: 0,
        isMuted: false,
        stepInterval: 0.05,
        isFixedVolume: false,
        inputEnabled: false
    )

    /// The level as a whole percentage, 0 to 100.
    public var percent: Int { WireNumber.clampedInteger(level * 100, in: 0...100) }

    /// Whether ``DeviceVolumeController/volumeUp()`` can raise the level.
    public var canVolumeUp: Bool { inputEnabled && level < 1 }

    /// Whether ``DeviceVolumeController/volumeDown()`` can lower the level.
    public var canVolumeDown: Bool { inputEnabled && level > 0 }
}
