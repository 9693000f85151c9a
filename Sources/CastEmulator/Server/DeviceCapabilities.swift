/// The capability bits of a Cast device, as advertised in the mDNS TXT key `ca`.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    /// Creates a set from the bitmask.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The device shows video (absent on speakers).
    public static let videoOut = DeviceCapabilities(rawValue: 1)
    /// The device takes video input.
    public static let videoIn = DeviceCapabilities(rawValue: 2)
    /// The device plays audio.
    public static let audioOut = DeviceCapabilities(rawValue: 4)
    /// The device takes audio input.
    public static let audioIn = DeviceCapabilities(rawValue: 8)
    /// The device is in developer mode.
    public static let developerMode = DeviceCapabilities(rawValue: 16)
    /// The device is a multizone group.
    public static let multizoneGroup = DeviceCapabilities(rawValue: 32)
    /// The device is a dynamic group.
    public static let dynamicGroup = DeviceCapabilities(rawValue: 64)
    /// The volume is master or fixed.
    public static let masterOrFixedVolume = DeviceCapabilities(rawValue: 2048)
    /// The volume is attenuation or fixed.
    public static let attenuationOrFixedVolume = DeviceCapabilities(rawValue: 4096)
    /// The device can join dynamic groups.
    public static let dynamicGroupingSupported = DeviceCapabilities(rawValue: 65536)

    /// A television or streaming stick: video and audio out.
    public static let videoDevice: DeviceCapabilities = [.videoOut, .audioOut]
    /// A speaker: audio out only.
    public static let audioDevice: DeviceCapabilities = [.audioOut]

    /// The names accepted by ``init(names:)``, with their bits.
    static let namedBits: [(String, DeviceCapabilities)] = [
        ("video_out", .videoOut), ("video_in", .videoIn), ("audio_out", .audioOut), ("audio_in", .audioIn),
        ("dev_mode", .developerMode), ("multizone_group", .multizoneGroup), ("dynamic_group", .dynamicGroup),
        ("master_or_fixed_volume", .masterOrFixedVolume),
        ("attenuation_or_fixed_volume", .attenuationOrFixedVolume),
        ("dynamic_grouping_supported", .dynamicGroupingSupported),
    ]

    /// Creates a set from names such as `video_out` and `audio_out`; `nil` for an unknown name.
    public init?(names: [String]) {
        var value = DeviceCapabilities()
        for name in names {
            guard let bit = Self.namedBits.first(where: { $0.0 == name.lowercased() })?.1 else { return nil }
            value.insert(bit)
        }
        self = value
    }

    public var description: String {
        let names = Self.namedBits.filter { contains($0.1) }.map(\.0)
        return names.isEmpty ? "[]" : "[" + names.joined(separator: ", ") + "]"
    }
}
