extension DeviceCapabilities {
    /// The names accepted by ``init(names:)``, with their bits.
    static let namedBits: [(String, DeviceCapabilities)] = [
        ("video_out", .videoOut), ("video_in", .videoIn), ("audio_out", .audioOut), ("audio_in", .audioIn),
        ("dev_mode", .developerMode), ("multizone_group", .multizoneGroup),
        ("master_or_fixed_volume", .masterOrFixedVolume), ("attenuation_or_fixed_volume", .attenuationOrFixedVolume),
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
}
