/// What a Cast device can do: the `ca` bit mask of its mDNS TXT record.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The device shows video (bit 0).
    public static let videoOut = DeviceCapabilities(rawValue: 1 << 0)
    /// The device takes video input (bit 1).
    public static let videoIn = DeviceCapabilities(rawValue: 1 << 1)
    /// The device plays audio (bit 2).
    public static let audioOut = DeviceCapabilities(rawValue: 1 << 2)
    /// The device takes audio input (bit 3).
    public static let audioIn = DeviceCapabilities(rawValue: 1 << 3)
    /// The device is in developer mode (bit 4).
    public static let developerMode = DeviceCapabilities(rawValue: 1 << 4)
    /// The device is a multizone speaker group (bit 5).
    public static let multizoneGroup = DeviceCapabilities(rawValue: 1 << 5)

    /// The volume is a master volume, or fixed (bit 11).
    public static let masterOrFixedVolume = DeviceCapabilities(rawValue: 1 << 11)
    /// The volume is an attenuation, or fixed (bit 12).
    public static let attenuationOrFixedVolume = DeviceCapabilities(rawValue: 1 << 12)
    /// The device can join dynamic speaker groups (bit 16).
    public static let dynamicGroupingSupported = DeviceCapabilities(rawValue: 1 << 16)

    /// A video device such as a Chromecast: video and audio out.
    public static let videoDevice: DeviceCapabilities = [.videoOut, .audioOut]
    /// An audio-only device such as a speaker.
    public static let audioDevice: DeviceCapabilities = [.audioOut]
}
