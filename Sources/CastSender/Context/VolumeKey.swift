/// A volume key of the device the app runs on (a phone's volume buttons, a keyboard's
/// volume keys, or the keys an app chooses for them).
public struct VolumeKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// Louder by one step.
    public static let up = VolumeKey(rawValue: "up")
    /// Quieter by one step.
    public static let down = VolumeKey(rawValue: "down")
    /// Mute on or off.
    public static let mute = VolumeKey(rawValue: "mute")

    public var description: String { rawValue }
}
