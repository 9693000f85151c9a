/// One value or member name of a parsed JSON document.
///
/// A document is a flat array of tokens in document order: a container token is followed by
/// its contents (for objects, alternating member-name string tokens and value tokens), and its
/// ``high`` field gives the index after everything inside it. Strings keep a reference to their raw bytes and
/// are only turned into `String`s when asked for.
struct JSONToken {
    enum Kind: UInt8 {
        case null
        case falseValue
        case trueValue
        case integer
        /// An integer above `Int.max` that fits in `UInt64`.
        case unsignedInteger
        case double
        case string
        case array
        case object
    }

    var kind: Kind
    /// Whether a string contains backslash escapes.
    var isEscaped: Bool
    /// For strings, the offset of the first byte after the opening quote; otherwise the first byte.
    var start: Int32
    /// Strings: the raw byte length between the quotes; arrays: the element count; objects: the
    /// member count; numbers: the low half of the payload.
    var low: UInt32
    /// Arrays and objects: the index of the token after the container and all of its contents;
    /// numbers: the high half of the payload.
    var high: UInt32

    /// The byte length of a string, or the element or member count of a container.
    var count: Int { Int(low) }
    /// An integer's bit pattern or a double's bits.
    var payload: UInt64 { UInt64(low) | UInt64(high) << 32 }
    var integer: Int { Int(truncatingIfNeeded: payload) }
    var double: Double { Double(bitPattern: payload) }
    var isContainer: Bool { kind.rawValue >= Kind.array.rawValue }

    var typeName: String {
        switch kind {
        case .null: "null"
        case .falseValue, .trueValue: "a boolean"
        case .integer, .unsignedInteger, .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A strict RFC 8259 JSON parser producing a flat token array.
///
/// It validates UTF-8, rejects unpaired surrogate escapes, leading zeros, trailing commas,
/// control characters in strings and anything after the top-level value, and limits nesting.
/// Every error carries the byte offset of the offending byte.
struct JSONParser {
    /// The default limit on nested arrays and objects.
    static let defaultMaximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0
    private var tokens: UnsafeMutablePointer<JSONToken>
    private var tokenCount = 0
    private var tokenCapacity: Int
    private let maximumDepth: Int

    /// The deepest nesting any caller may ask for; it bounds the parser's recursion.
    static let depthLimit = 512

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        // Typical payloads need one token per six to eight bytes; the buffer grows when not.
        self.tokenCapacity = bytes.count / 6 + 16
        self.tokens = .allocate(capacity: tokenCapacity)
        self.maximumDepth = min(max(maximumDepth, 1), JSONParser.depthLimit)
    }

    /// Parses one JSON text and calls `body` with its tokens, which are only valid inside `body`.
    static func withTokens<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int = defaultMaximumDepth,
        _ body: (UnsafeBufferPointer<JSONToken>) throws -> Result
    ) throws -> Result {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        defer { parser.tokens.deallocate() }
        try parser.parseDocument()
        return try body(UnsafeBufferPointer(start: parser.tokens, count: parser.tokenCount))
    }

    private mutating func parseDocument() throws(MessageDecodingError) {
        guard bytes.count < Int(Int32.max) else {
            throw MessageDecodingError(code: .invalidJSON, byteOffset: 0, detail: "payload too large")
        }
        guard bytes.count > 0 else {
            throw MessageDecodingError(code: .invalidJSON, byteOffset: 0, detail: "empty payload")
        }
        skipWhitespace()
        try parseValue(depth: 0)
        skipWhitespace()
        if offset != bytes.count {
            throw error("unexpected data after the JSON value")
        }
    }

    // MARK: Values

    private mutating func parseValue(depth: Int) throws(MessageDecodingError) {
        guard offset < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try parseLiteral("true", kind: .trueValue)
        case UInt8(ascii: "f"): try parseLiteral("false", kind: .falseValue)
        case UInt8(ascii: "n"): try parseLiteral("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw error("unexpected character \(describe(bytes[offset])), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(MessageDecodingError) {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        let index = appendToken(.object, start: offset)
        offset += 1
        skipWhitespace()
        var count: UInt32 = 0
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
            offset += 1
        } else {
            while true {
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
                    throw error(offset < bytes.count ? "expected a member name string" : "unterminated object")
                }
                try parseString()
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
                    throw error("expected ':' after a member name")
                }
                offset += 1
                skipWhitespace()
                try parseValue(depth: depth)
                count += 1
                skipWhitespace()
                guard offset < bytes.count else { throw error("unterminated object") }
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "}") { break }
                guard byte == UInt8(ascii: ",") else {
                    offset -= 1
                    throw error("expected ',' or '}' in an object")
                }
                skipWhitespace()
            }
        }
        tokens[index].low = count
        tokens[index].high = UInt32(tokenCount)
    }

    private mutating func parseArray(depth: Int) throws(MessageDecodingError) {
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        let index = appendToken(.array, start: offset)
        offset += 1
        skipWhitespace()
        var count: UInt32 = 0
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
            offset += 1
        } else {
            while true {
                try parseValue(depth: depth)
                count += 1
                skipWhitespace()
                guard offset < bytes.count else { throw error("unterminated array") }
                let byte = bytes[offset]
                offset += 1
                if byte == UInt8(ascii: "]") { break }
                guard byte == UInt8(ascii: ",") else {
                    offset -= 1
                    throw error("expected ',' or ']' in an array")
                }
                skipWhitespace()
            }
        }
        tokens[index].low = count
        tokens[index].high = UInt32(tokenCount)
    }

    private mutating func parseLiteral(_ literal: StaticString, kind: JSONToken.Kind) throws(MessageDecodingError) {
        let length = literal.utf8CodeUnitCount
        let start = offset
        guard bytes.count - offset >= length else { throw error("invalid literal") }
        let pointer = literal.utf8Start
        for position in 0..<length where bytes[offset + position] != pointer[position] {
            offset += position
            throw error("invalid literal")
        }
        offset += length
        _ = appendToken(kind, start: start)
    }

    // MARK: Strings

    private mutating func parseString() throws(MessageDecodingError) {
        let quote = offset
        var position = offset + 1
        var escaped = false
        let base = bytes.baseAddress!
        while true {
            if position &+ 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let mask = JSONParser.attentionMask(word)
                if mask == 0 {
                    position &+= 8
                    continue
                }
                // The lowest flagged byte is always a real match.
                position &+= mask.trailingZeroBitCount &>> 3
            } else if position >= bytes.count {
                offset = quote
                throw error("unterminated string")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position = try validateEscape(at: position)
            } else if byte < 0x20 {
                offset = position
                throw error("unescaped control character \(describe(byte)) in a string")
            } else if byte < 0x80 {
                position += 1
            } else {
                position = try validateUTF8(at: position)
            }
        }
        let index = appendToken(.string, start: quote + 1)
        tokens[index].low = UInt32(position - quote - 1)
        tokens[index].isEscaped = escaped
        offset = position + 1
    }

    /// Flags (high bit) the bytes of `word`, read little-endian, that are a quote, a backslash,
    /// a control character or not ASCII. Bytes above the lowest flagged one may be flagged
    /// spuriously; the lowest flagged byte is always a real match, and none is missed.
    @inline(__always)
    private static func attentionMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    /// Validates the escape sequence at `position` (a backslash); returns the offset after it.
    private mutating func validateEscape(at position: Int) throws(MessageDecodingError) -> Int {
        guard position + 1 < bytes.count else {
            offset = position
            throw error("unterminated escape sequence")
        }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return position + 2
        case UInt8(ascii: "u"):
            let unit = try hexQuad(at: position + 2)
            switch unit {
            case 0xD800...0xDBFF:
                guard position + 7 < bytes.count, bytes[position + 6] == UInt8(ascii: "\\"),
                    bytes[position + 7] == UInt8(ascii: "u")
                else {
                    offset = position
                    throw error("unpaired UTF-16 surrogate escape")
                }
                let low = try hexQuad(at: position + 8)
                guard (0xDC00...0xDFFF).contains(low) else {
                    offset = position + 6
                    throw error("unpaired UTF-16 surrogate escape")
                }
                return position + 12
            case 0xDC00...0xDFFF:
                offset = position
                throw error("unpaired UTF-16 surrogate escape")
            default:
                return position + 6
            }
        default:
            offset = position + 1
            throw error("invalid escape character \(describe(bytes[position + 1]))")
        }
    }

    private mutating func hexQuad(at position: Int) throws(MessageDecodingError) -> UInt16 {
        var value: UInt16 = 0
        for index in position..<position + 4 {
            guard index < bytes.count, let digit = JSONParser.hexValue(bytes[index]) else {
                offset = min(index, bytes.count)
                throw error("expected four hexadecimal digits in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Validates the multi-byte UTF-8 sequence at `position`; returns the offset after it.
    private mutating func validateUTF8(at position: Int) throws(MessageDecodingError) -> Int {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default:
            offset = position
            throw error("invalid UTF-8 byte \(describe(lead))")
        }
        guard position + length <= bytes.count else {
            offset = position
            throw error("truncated UTF-8 sequence")
        }
        guard secondRange.contains(bytes[position + 1]) else {
            offset = position + 1
            throw error("invalid UTF-8 sequence")
        }
        for index in position + 2..<position + length where bytes[index] & 0xC0 != 0x80 {
            offset = index
            throw error("invalid UTF-8 sequence")
        }
        return position + length
    }

    // MARK: Numbers

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    private mutating func parseNumber() throws(MessageDecodingError) {
        let start = offset
        var negative = false
        if bytes[offset] == UInt8(ascii: "-") {
            negative = true
            offset += 1
        }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("expected a digit") }
        var mantissa: UInt64 = 0
        var truncated = false
        var fractionDigits = 0
        var isInteger = true
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw error("leading zero in a number") }
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) {
                let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, carry) = scaled.addingReportingOverflow(UInt64(bytes[offset] - UInt8(ascii: "0")))
                if overflow || carry {
                    truncated = true
                } else if !truncated {
                    mantissa = sum
                }
                offset += 1
            }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("expected a digit after '.'") }
            while offset < bytes.count, isDigit(bytes[offset]) {
                if !truncated, mantissa <= (UInt64.max - 9) / 10 {
                    mantissa = mantissa * 10 + UInt64(bytes[offset] - UInt8(ascii: "0"))
                    fractionDigits += 1
                } else {
                    truncated = true
                }
                offset += 1
            }
        }
        var exponent = 0
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            offset += 1
            var exponentNegative = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                exponentNegative = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("expected a digit in the exponent") }
            while offset < bytes.count, isDigit(bytes[offset]) {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[offset] - UInt8(ascii: "0")) }
                offset += 1
            }
            if exponentNegative { exponent = -exponent }
        }

        let index = appendToken(.integer, start: start)
        if isInteger, !truncated {
            if !negative {
                if mantissa > UInt64(Int.max) { tokens[index].kind = .unsignedInteger }
                setPayload(mantissa, at: index)
                return
            }
            if negative, mantissa != 0, mantissa <= UInt64(Int.max) + 1 {
                setPayload(0 &- mantissa, at: index)
                return
            }
        }
        tokens[index].kind = .double
        let decimalExponent = exponent - fractionDigits
        if !truncated, mantissa <= 1 << 53, (-22...22).contains(decimalExponent) {
            var value = Double(mantissa)
            let scale = JSONParser.exactPowersOfTen[abs(decimalExponent)]
            value = decimalExponent < 0 ? value / scale : value * scale
            setPayload((negative ? -value : value).bitPattern, at: index)
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw error("number out of range")
        }
        setPayload(value.bitPattern, at: index)
    }

    @inline(__always)
    private func setPayload(_ payload: UInt64, at index: Int) {
        tokens[index].low = UInt32(truncatingIfNeeded: payload)
        tokens[index].high = UInt32(truncatingIfNeeded: payload >> 32)
    }

    // MARK: Helpers

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always)
    private mutating func appendToken(_ kind: JSONToken.Kind, start: Int) -> Int {
        let index = tokenCount
        if index == tokenCapacity { growTokens() }
        (tokens + index).initialize(to: JSONToken(kind: kind, isEscaped: false, start: Int32(start), low: 0, high: 0))
        tokenCount = index + 1
        return index
    }

    private mutating func growTokens() {
        let grown = UnsafeMutablePointer<JSONToken>.allocate(capacity: tokenCapacity * 2)
        grown.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = grown
        tokenCapacity *= 2
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): offset += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    private func error(_ detail: String) -> MessageDecodingError {
        MessageDecodingError(code: .invalidJSON, byteOffset: offset, detail: detail)
    }
}
