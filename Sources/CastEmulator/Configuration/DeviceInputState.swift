/// A device's HDMI-CEC state as `RECEIVER_STATUS` reports it.
public struct DeviceInputState: Hashable, Sendable {
    /// Whether the device is the TV's active input.
    public var isActiveInput: Bool
    /// Whether the TV is in standby.
    public var isStandBy: Bool

    /// Creates a state.
    public init(isActiveInput: Bool, isStandBy: Bool) {
        self.isActiveInput = isActiveInput
        self.isStandBy = isStandBy
    }
}
