/// Makes the session and transport ids of launched apps: UUID-like strings from a seeded
/// SplitMix64 sequence, so a device with a fixed seed is reproducible.
struct IdentifierGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// An uppercase `8-4-4-4-12` id, e.g. `7E2FF513-CDF6-9A91-2B28-3E3DE7BAC174`.
    mutating func uuidString() -> String {
        let high = next()
        let low = next()
        let hex = Self.hex(high, digits: 16) + Self.hex(low, digits: 16)
        var groups: [Substring] = []
        var start = hex.startIndex
        for length in [8, 4, 4, 4, 12] {
            let end = hex.index(start, offsetBy: length)
            groups.append(hex[start..<end])
            start = end
        }
        return groups.joined(separator: "-")
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
