/// What a Cast device can do, from the `ca` key of its TXT record (a decimal bitmask).
public struct CastDeviceCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The device can show video.
    public static let videoOut = CastDeviceCapabilities(rawValue: 1 << 0)
    /// The device can take video input.
    public static let videoIn = CastDeviceCapabilities(rawValue: 1 << 1)
    /// The device can play audio.
    public static let audioOut = CastDeviceCapabilities(rawValue: 1 << 2)
    /// The device can take audio input.
    public static let audioIn = CastDeviceCapabilities(rawValue: 1 << 3)
    /// The device is in developer mode.
    public static let devMode = CastDeviceCapabilities(rawValue: 1 << 4)
    /// The device is a multizone (speaker) group.
    public static let multizoneGroup = CastDeviceCapabilities(rawValue: 1 << 5)
    /// The device is a dynamic group.
    public static let dynamicGroup = CastDeviceCapabilities(rawValue: 1 << 6)
    /// The device's volume is fixed or controlled by a group master.
    public static let masterOrFixedVolume = CastDeviceCapabilities(rawValue: 1 << 11)
    /// The device's volume is an attenuation or is fixed.
    public static let attenuationOrFixedVolume = CastDeviceCapabilities(rawValue: 1 << 12)
    /// The device can join dynamic groups.
    public static let dynamicGroupingSupported = CastDeviceCapabilities(rawValue: 1 << 16)
}
