import Foundation

/// Checks a WebVTT text track as a receiver's player does before it shows its cues: the
/// `WEBVTT` signature (after an optional byte-order mark) and well-formed cue timings.
enum WebVTTValidator {
    /// Validates the first bytes of a track (a last, unfinished line is ignored when
    /// `isComplete` is false).
    /// - Returns: how many cues the bytes hold.
    /// - Throws: ``MediaProbeError``: `notSupported` without the signature, `malformed` for
    ///   a cue timing line that does not parse or ends before it starts.
    static func validate(_ bytes: [UInt8], isComplete: Bool) throws(MediaProbeError) -> Int {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        if !isComplete, lines.count > 1 { lines.removeLast() }
        guard let first = lines.first, first.hasPrefix("WEBVTT"),
            first.count == 6 || first.dropFirst(6).first == " " || first.dropFirst(6).first == "\t"
        else {
            throw MediaProbeError(code: .notSupported, context: "no WEBVTT signature")
        }
        var cues = 0
        for (number, line) in lines.enumerated() where line.contains("-->") {
            let parts = line.components(separatedBy: "-->")
            guard parts.count == 2, let start = timestamp(parts[0].trimmingSpaces()),
                let end = timestamp(String(parts[1].trimmingSpaces().prefix { $0 != " " && $0 != "\t" }))
            else {
                throw MediaProbeError(code: .malformed, context: "cue timing on line \(number + 1)")
            }
            guard end >= start else {
                throw MediaProbeError(code: .malformed, context: "cue ending before it starts on line \(number + 1)")
            }
            cues += 1
        }
        return cues
    }

    /// Seconds of a WebVTT timestamp (`hh:mm:ss.ttt` or `mm:ss.ttt`), or `nil`.
    static func timestamp(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let last = parts.last else { return nil }
        let seconds = last.split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count == 2, seconds[0].count == 2, seconds[1].count == 3 else { return nil }
        let fields = parts.dropLast().map(String.init) + [String(seconds[0]), String(seconds[1])]
        guard fields.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        let values = fields.compactMap { Int($0) }
        let hours = parts.count == 3 ? values[0] : 0
        let minutes = values[values.count - 3]
        let whole = values[values.count - 2]
        guard parts.count == 2 || parts[1].count == 2, minutes < 60, whole < 60 else { return nil }
        return Double(hours * 3600 + minutes * 60 + whole) + Double(values[values.count - 1]) / 1000
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
