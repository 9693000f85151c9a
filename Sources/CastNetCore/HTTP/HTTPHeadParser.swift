/// Parsing shared by requests and responses: locating the header section in a byte
/// buffer and splitting it into a start line and fields. Pure functions on bytes.
enum HTTPHeadParser {
    struct Head {
        var startLine: String
        var headers: HTTPHeaders
        /// Bytes from the start of the buffer slice through the blank line.
        var length: Int
    }

    /// Looks for a complete head in `bytes[start...]`.
    /// - Returns: the head, or `nil` when more bytes are needed.
    /// - Throws: when a limit is crossed or a line is malformed.
    static func parse(
        _ bytes: [UInt8],
        from start: Int,
        streamOffset: Int,
        maximumStartLine: Int,
        maximumHeadSize: Int,
        maximumFieldCount: Int
    ) throws(HTTPParseError) -> Head? {
        // Skip blank lines before a message (allowed between keep-alive requests).
        var index = start
        while index < bytes.count, bytes[index] == 0x0D || bytes[index] == 0x0A { index += 1 }
        let headStart = index
        var lines: [Range<Int>] = []
        var lineStart = index
        while index < bytes.count {
            if bytes[index] == 0x0A {
                var lineEnd = index
                if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                if lines.isEmpty && lineEnd - lineStart > maximumStartLine {
                    throw HTTPParseError(
                        .startLineTooLong,
                        offset: streamOffset + headStart,
                        detail: "start line of \(lineEnd - lineStart) bytes, limit \(maximumStartLine)"
                    )
                }
                if lineEnd == lineStart {
                    return try build(lines: lines, bytes: bytes, length: index + 1 - start, streamOffset: streamOffset)
                }
                lines.append(lineStart..<lineEnd)
                if lines.count > maximumFieldCount + 1 {
                    throw HTTPParseError(
                        .headersTooLarge,
                        offset: streamOffset + lineStart,
                        detail: "more than \(maximumFieldCount) header fields"
                    )
                }
                lineStart = index + 1
            }
            index += 1
            if index - headStart > maximumHeadSize {
                if lines.isEmpty {
                    throw HTTPParseError(
                        .startLineTooLong,
                        offset: streamOffset + headStart,
                        detail: "no end of start line within \(maximumStartLine) bytes"
                    )
                }
                throw HTTPParseError(
                    .headersTooLarge,
                    offset: streamOffset + headStart,
                    detail: "header section over \(maximumHeadSize) bytes"
                )
            }
        }
        if lines.isEmpty && bytes.count - headStart > maximumStartLine {
            throw HTTPParseError(
                .startLineTooLong,
                offset: streamOffset + headStart,
                detail: "no end of start line within \(maximumStartLine) bytes"
            )
        }
        return nil
    }

    private static func build(
        lines: [Range<Int>],
        bytes: [UInt8],
        length: Int,
        streamOffset: Int
    ) throws(HTTPParseError) -> Head {
        guard let first = lines.first else {
            throw HTTPParseError(.malformedStartLine, offset: streamOffset, detail: "empty start line")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let offset = streamOffset + line.lowerBound
            let first = bytes[line.lowerBound]
            if first == 0x20 || first == 0x09 {
                throw HTTPParseError(.malformedHeader, offset: offset, detail: "folded header line")
            }
            guard let colon = bytes[line].firstIndex(of: 0x3A), colon > line.lowerBound else {
                throw HTTPParseError(.malformedHeader, offset: offset, detail: "header line without a name and colon")
            }
            let nameBytes = bytes[line.lowerBound..<colon]
            guard nameBytes.allSatisfy(isTokenByte) else {
                throw HTTPParseError(.malformedHeader, offset: offset, detail: "invalid character in header name")
            }
            let valueBytes = bytes[(colon + 1)..<line.upperBound]
            guard !valueBytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
                throw HTTPParseError(.malformedHeader, offset: offset, detail: "control character in header value")
            }
            headers.add(
                name: String(decoding: nameBytes, as: UTF8.self),
                value: String(decoding: valueBytes, as: UTF8.self).trimmingSpaces()
            )
        }
        return Head(startLine: String(decoding: bytes[first], as: UTF8.self), headers: headers, length: length)
    }

    /// `tchar` of RFC 9110.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Reads `HTTP/1.x` and returns x.
    static func minorVersion(_ text: Substring, offset: Int) throws(HTTPParseError) -> Int {
        guard text.hasPrefix("HTTP/"), text.count == 8 else {
            throw HTTPParseError(.malformedStartLine, offset: offset, detail: "bad version \"\(text.prefix(16))\"")
        }
        let digits = Array(text.utf8.dropFirst(5))
        guard digits[1] == 0x2E, (0x30...0x39).contains(digits[0]), (0x30...0x39).contains(digits[2]) else {
            throw HTTPParseError(.malformedStartLine, offset: offset, detail: "bad version \"\(text)\"")
        }
        guard digits[0] == 0x31, digits[2] == 0x30 || digits[2] == 0x31 else {
            throw HTTPParseError(.unsupportedVersion, offset: offset, detail: "\(text) is not HTTP/1.0 or HTTP/1.1")
        }
        return Int(digits[2] - 0x30)
    }

    /// The declared body length: `nil` when there is no `Content-Length`.
    static func contentLength(_ headers: HTTPHeaders, offset: Int) throws(HTTPParseError) -> Int? {
        let values = headers.values(for: "Content-Length").flatMap {
            $0.split(separator: ",").map { $0.trimmingSpaces() }
        }
        guard let first = values.first else { return nil }
        guard values.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
            first.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(first)
        else {
            throw HTTPParseError(.invalidContentLength, offset: offset, detail: "Content-Length \"\(values)\"")
        }
        return length
    }
}
