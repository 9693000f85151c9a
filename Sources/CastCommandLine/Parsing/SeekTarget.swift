/// A `seek` position: absolute seconds, or an offset from the current position.
package struct SeekTarget: Hashable, Sendable {
    /// Seconds (absolute) or the offset in seconds (relative, signed).
    package var seconds: Double
    /// Whether `seconds` is an offset.
    package var isRelative: Bool

    /// Parses `90`, `1:30`, `01:02:03`, `90.5`, `+10`, `-1:00`.
    /// - Returns: `nil` when the text is not a position.
    package init?(_ text: String) {
        var body = Substring(text)
        var sign = 1.0
        isRelative = false
        if let first = body.first, first == "+" || first == "-" {
            isRelative = true
            sign = first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        guard let value = Self.parseClock(body) else { return nil }
        seconds = sign * value
    }

    /// Parses `S`, `M:SS` or `H:MM:SS` (the last part may have a fraction).
    static func parseClock(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (offset, part) in parts.enumerated() {
            let isLast = offset == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let value = Double(part), value.isFinite
            else { return nil }
            if offset > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }
}

/// A volume level: `0.5`, `50%`.
package struct VolumeLevel: Hashable, Sendable {
    /// The level from 0 to 1.
    package var fraction: Double

    /// Parses a fraction from 0 to 1 (`0.35`) or a percentage from 0 to 100 (`35%`).
    /// - Returns: `nil` when the text is not a level in range.
    package init?(_ text: String) {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), (0...100).contains(percent) else { return nil }
            fraction = percent / 100
        } else {
            guard let value = Double(text), (0...1).contains(value) else { return nil }
            fraction = value
        }
    }
}
