import CastCore
import Foundation

/// An MPEG-DASH manifest (`.mpd`) as far as the virtual device needs it: whether it is live
/// (`type="dynamic"`) and its `mediaPresentationDuration`.
struct DASHManifest: Sendable, Equatable {
    /// `type="dynamic"`: a live presentation.
    var isDynamic: Bool
    /// `mediaPresentationDuration`, in seconds.
    var duration: Double?
    /// How many `Period` elements the manifest holds.
    var periodCount: Int

    /// The largest manifest the device reads.
    static let maximumSize = 1 << 20

    /// Whether `bytes` look like an MPD (an `<MPD` element near the start).
    static func looksLikeMPD(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes.prefix(4096), as: UTF8.self).contains("<MPD")
    }

    /// Parses the `MPD` element's attributes and counts its periods.
    /// - Throws: ``MediaProbeError``: `notSupported` without an `MPD` element, `malformed`
    ///   for a bad duration, an unknown `type` or a broken start tag.
    static func parse(_ bytes: [UInt8]) throws(MediaProbeError) -> DASHManifest {
        guard bytes.count <= maximumSize else {
            throw MediaProbeError(code: .tooLarge, context: "manifest of \(bytes.count) bytes")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let open = text.range(of: "<MPD"),
            let after = text[open.upperBound...].first,
            after == " " || after == ">" || after == "\n" || after == "\t"
                || after == "\r"
        else {
            throw MediaProbeError(code: .notSupported, context: "no MPD element")
        }
        guard let close = text[open.upperBound...].firstIndex(of: ">") else {
            throw MediaProbeError(code: .malformed, context: "MPD start tag")
        }
        let attributes = try Self.attributes(String(text[open.upperBound..<close]))
        let isDynamic: Bool
        switch attributes["type"] ?? "static" {
        case "static": isDynamic = false
        case "dynamic": isDynamic = true
        case let other: throw MediaProbeError(code: .malformed, context: "MPD type \"\(other.prefix(16))\"")
        }
        let duration = try attributes["mediaPresentationDuration"].map { value throws(MediaProbeError) in
            guard let seconds = isoDuration(value) else {
                throw MediaProbeError(code: .malformed, context: "mediaPresentationDuration \"\(value.prefix(32))\"")
            }
            // A duration no clock holds (P999999999Y) is an error, not a reason to play
            // something else.
            guard WireNumber.isValidSeconds(seconds) else {
                throw MediaProbeError(
                    code: .malformed,
                    context:
                        "mediaPresentationDuration \(value.prefix(32)) is \(seconds) s, beyond \(WireNumber.maximumSeconds) s"
                )
            }
            return seconds
        }
        let body = text[close...]
        let periods = body.components(separatedBy: "<Period").count - 1
        return DASHManifest(isDynamic: isDynamic, duration: duration, periodCount: periods)
    }

    /// The `name="value"` pairs of a start tag's inside.
    static func attributes(_ tag: String) throws(MediaProbeError) -> [String: String] {
        var result: [String: String] = [:]
        var rest = Substring(tag)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "/" }
            guard !rest.isEmpty else { return result }
            guard let equals = rest.firstIndex(of: "=") else {
                throw MediaProbeError(code: .malformed, context: "MPD attribute")
            }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            guard let quote = rest.first, quote == "\"" || quote == "'" else {
                throw MediaProbeError(code: .malformed, context: "MPD attribute \(name.prefix(32))")
            }
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else {
                throw MediaProbeError(code: .malformed, context: "MPD attribute \(name.prefix(32))")
            }
            result[String(name)] = String(rest[..<end])
            rest = rest[rest.index(after: end)...]
            guard result.count <= 256 else { throw MediaProbeError(code: .tooLarge, context: "MPD attributes") }
        }
    }

    /// Seconds of an ISO 8601 duration (`PT1H2M3.5S`, `P1DT2H`; a year counts 365 days, a
    /// month 30), or `nil` when malformed.
    static func isoDuration(_ text: String) -> Double? {
        var rest = Substring(text)
        guard rest.first == "P", text.count <= 64 else { return nil }
        rest = rest.dropFirst()
        var seconds = 0.0
        var inTime = false
        var sawComponent = false
        let dateUnits: [Character: Double] = ["Y": 31_536_000, "M": 2_592_000, "W": 604_800, "D": 86_400]
        let timeUnits: [Character: Double] = ["H": 3600, "M": 60, "S": 1]
        while let next = rest.first {
            if next == "T" {
                guard !inTime else { return nil }
                inTime = true
                rest = rest.dropFirst()
                guard !rest.isEmpty else { return nil }
                continue
            }
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count)
            guard let unit = rest.first, let scale = (inTime ? timeUnits : dateUnits)[unit] else { return nil }
            rest = rest.dropFirst()
            seconds += value * scale
            sawComponent = true
        }
        return sawComponent && seconds.isFinite ? seconds : nil
    }
}
