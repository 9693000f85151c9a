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

    /// The most cues kept of one track for the screen, and the most characters of a cue.
    static let maximumCues = 2000
    static let maximumCueLength = 500

    /// The cues of a track that ``validate(_:isComplete:)`` accepted: timings and text
    /// (markup tags removed), at most ``maximumCues`` of them, each text cut to
    /// ``maximumCueLength`` characters.
    static func cues(_ bytes: [UInt8], isComplete: Bool) -> [WebVTTCue] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        if !isComplete, lines.count > 1 { lines.removeLast() }
        var cues: [WebVTTCue] = []
        var index = 0
        while index < lines.count, cues.count < maximumCues {
            let line = lines[index]
            index += 1
            guard line.contains("-->") else { continue }
            let parts = line.components(separatedBy: "-->")
            guard parts.count == 2, let start = timestamp(parts[0].trimmingSpaces()),
                let end = timestamp(String(parts[1].trimmingSpaces().prefix { $0 != " " && $0 != "\t" }))
            else { continue }
            var body: [String] = []
            while index < lines.count, !lines[index].isEmpty {
                body.append(String(lines[index]))
                index += 1
            }
            cues.append(
                WebVTTCue(
                    start: start,
                    end: end,
                    text: String(stripTags(body.joined(separator: "\n")).prefix(maximumCueLength))
                )
            )
        }
        return cues
    }

    /// `text` without WebVTT markup (`<i>`, `<c.yellow>`, `<00:01.000>`) and with the
    /// character references `&amp;`, `&lt;`, `&gt;` and `&nbsp;` decoded.
    static func stripTags(_ text: String) -> String {
        var output = ""
        var inTag = false
        for character in text {
            if character == "<" {
                inTag = true
            } else if character == ">" && inTag {
                inTag = false
            } else if !inTag {
                output.append(character)
            }
        }
        return output.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&nbsp;", with: " ").replacingOccurrences(of: "&amp;", with: "&")
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

/// One cue of a WebVTT text track: what the screen shows from `start` to `end`.
struct WebVTTCue: Sendable, Hashable {
    /// Seconds into the media.
    var start: Double
    /// Seconds into the media.
    var end: Double
    /// The text, without markup.
    var text: String
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
