/// Converts SubRip (`.srt`) subtitles to WebVTT, the only text format Cast receivers take.
///
/// Cue numbers are dropped, `00:01:02,500` becomes `00:01:02.500`, a byte-order mark and
/// CRLF or CR line ends are removed, and styling tags such as `<i>` pass through (WebVTT
/// knows them).
package enum SubRipConverter {
    /// Converts the text of an `.srt` file.
    package static func webVTT(fromSubRip text: String) -> String {
        var source = text
        if source.hasPrefix("\u{FEFF}") { source.removeFirst() }
        source = source.replacingLineEnds()
        var output = "WEBVTT\n"
        var pending: [Substring] = []
        // Split on the byte: splitting on the Character would run grapheme breaking over the
        // whole file.
        var lines = source.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { Substring($0) }
        lines.append("")
        for line in lines {
            if line.trimmingSpaces.isEmpty {
                appendCue(pending, to: &output)
                pending.removeAll()
            } else {
                pending.append(line)
            }
        }
        return output
    }

    /// Converts the bytes of an `.srt` file (UTF-8; Latin-1 when not valid UTF-8).
    package static func webVTT(fromSubRip data: [UInt8]) -> String {
        let text =
            String(validating: data, as: UTF8.self)
            ?? String(decoding: data.map { UInt16($0) }, as: UTF16.self)
        return webVTT(fromSubRip: text)
    }

    /// Rewrites an SRT timing line (`00:00:01,000 --> 00:00:02,500 X1:…`) for WebVTT.
    static func timingLine(_ line: Substring) -> String? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let start = line[..<arrow.lowerBound].trimmingSpaces
        let rest = line[arrow.upperBound...].trimmingSpaces
        let end = rest.prefix { $0 != " " && $0 != "\t" }
        guard let startTime = timestamp(start), let endTime = timestamp(end) else { return nil }
        return "\(startTime) --> \(endTime)"
    }

    /// `1:02:03,5` or `00:01:02,500` → `01:02:03.500`.
    static func timestamp(_ text: Substring) -> String? {
        let normalized = text.replacingOccurrences(",", with: ".")
        let parts = normalized.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 2 else { return nil }
        let hours = parts.count == 3 ? Int(parts[0]) : 0
        let minutes = Int(parts[parts.count - 2])
        let secondParts = parts[parts.count - 1].split(separator: ".", omittingEmptySubsequences: false)
        guard let hours, let minutes, (1...2).contains(secondParts.count), let seconds = Int(secondParts[0]),
            minutes < 60, seconds < 60, hours >= 0, minutes >= 0, seconds >= 0
        else { return nil }
        var millis = 0
        if secondParts.count == 2 {
            let digits = secondParts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int(digits)
            else { return nil }
            millis = value * [100, 10, 1][digits.count - 1]
        }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(millis, 3))"
    }

    private static func appendCue(_ lines: [Substring], to output: inout String) {
        guard !lines.isEmpty else { return }
        var body = lines[...]
        if let first = body.first, first.trimmingSpaces.allSatisfy({ $0.isASCII && $0.isNumber }), body.count > 1 {
            body = body.dropFirst()
        }
        guard let first = body.first, let timing = timingLine(first) else { return }
        output += "\n\(timing)\n"
        for line in body.dropFirst() {
            // "-->" may not appear in a WebVTT cue payload (searched as bytes first: most lines
            // have none).
            let hasArrow = line.utf8.indices.contains { line.utf8[$0...].starts(with: "-->".utf8) }
            output += (hasArrow ? line.replacingOccurrences("-->", with: "->") : String(line)) + "\n"
        }
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: Substring {
        let text = Substring(self)
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return text[start..<Swift.max(start, end)]
    }

    fileprivate func replacingOccurrences(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    fileprivate func replacingLineEnds() -> String {
        // CR LF and a lone CR become LF, byte by byte: an array of Characters would take
        // sixteen bytes for each byte of the file.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var afterCR = false
        for byte in utf8 {
            if byte == 0x0A, afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            bytes.append(afterCR ? 0x0A : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    fileprivate func range(of target: String) -> Range<Index>? {
        guard !target.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) {
                return index..<self.index(index, offsetBy: target.count)
            }
            index = self.index(after: index)
        }
        return nil
    }
}
