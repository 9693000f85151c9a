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
///
/// One pass over the bytes, without recursion: open arrays and objects are kept on a stack
/// (on the machine stack, at most the nesting limit deep), the position stays in a register,
/// and no memory is allocated per token (the token buffer is allocated once, sized from the
/// input). Text that is already known to be UTF-8 (it came from a `String`) is not validated
/// a second time: string contents are then scanned only for quotes, backslashes and control
/// characters.
struct JSONParser {
    /// The default limit on nested arrays and objects.
    static let defaultMaximumDepth = 64

    /// The deepest nesting any caller may ask for; it bounds the container stack.
    static let depthLimit = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Whether `bytes` is known to be valid UTF-8, so string contents need no validation.
    private let isValidUTF8: Bool
    private var tokens: UnsafeMutablePointer<JSONToken>
    private var tokenCount = 0
    private var tokenCapacity: Int
    private let maximumDepth: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, isValidUTF8: Bool) {
        self.bytes = bytes
        self.isValidUTF8 = isValidUTF8
        // Typical payloads need one token per six to eight bytes; the buffer grows when not.
        self.tokenCapacity = bytes.count / 6 + 16
        self.tokens = .allocate(capacity: tokenCapacity)
        self.maximumDepth = min(max(maximumDepth, 1), JSONParser.depthLimit)
    }

    /// Parses one JSON text and calls `body` with its tokens, which are only valid inside `body`.
    ///
    /// - Parameter isValidUTF8: `bytes` are known to be valid UTF-8 (the contents of a `String`),
    ///   so they are not validated again. Never set it for bytes from anywhere else.
    static func withTokens<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int = defaultMaximumDepth,
        isValidUTF8: Bool = false,
        _ body: (UnsafeBufferPointer<JSONToken>) throws -> Result
    ) throws -> Result {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth, isValidUTF8: isValidUTF8)
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
        // The open containers' token indices, innermost last.
        let end = try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: maximumDepth + 1) {
            stack throws(MessageDecodingError) -> Int in
            try parseValues(stack: stack.baseAddress!)
        }
        if end != bytes.count { throw error("unexpected data after the JSON value", at: end) }
    }

    /// What the parser expects next.
    private enum Step {
        /// A value (after the start, `[`, `,` in an array, or `:`).
        case value
        /// A member name string (after `{` or `,` in an object).
        case memberName
        /// The end of a value: `,`, `]` or `}` inside a container, else the end of the document.
        case afterValue
    }

    /// Parses the top-level value and everything inside it; returns the offset after it and
    /// any whitespace that follows.
    private mutating func parseValues(stack: UnsafeMutablePointer<UInt32>) throws(MessageDecodingError) -> Int {
        let base = bytes.baseAddress!
        let end = bytes.count
        var position = skipWhitespace(base, 0, end)
        var depth = 0
        var step = Step.value
        while true {
            switch step {
            case .value:
                guard position < end else { throw error("unexpected end of input, expected a value", at: position) }
                switch base[position] {
                case UInt8(ascii: "\""):
                    position = try parseString(at: position)
                    step = .afterValue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    position = try parseNumber(at: position)
                    step = .afterValue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let isObject = base[position] == UInt8(ascii: "{")
                    depth += 1
                    guard depth <= maximumDepth else {
                        throw error("nesting deeper than \(maximumDepth) levels", at: position)
                    }
                    let index = appendToken(isObject ? .object : .array, start: position)
                    stack[depth] = UInt32(truncatingIfNeeded: index)
                    position = skipWhitespace(base, position + 1, end)
                    if position < end, base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        position += 1
                        tokens[index].high = UInt32(truncatingIfNeeded: tokenCount)
                        depth -= 1
                        step = .afterValue
                    } else {
                        step = isObject ? .memberName : .value
                    }
                case UInt8(ascii: "t"):
                    position = try parseLiteral("true", .trueValue, at: position)
                    step = .afterValue
                case UInt8(ascii: "f"):
                    position = try parseLiteral("false", .falseValue, at: position)
                    step = .afterValue
                case UInt8(ascii: "n"):
                    position = try parseLiteral("null", .null, at: position)
                    step = .afterValue
                default:
                    throw error("unexpected character \(describe(base[position])), expected a value", at: position)
                }
            case .memberName:
                guard position < end, base[position] == UInt8(ascii: "\"") else {
                    throw error(position < end ? "expected a member name string" : "unterminated object", at: position)
                }
                position = skipWhitespace(base, try parseString(at: position), end)
                guard position < end, base[position] == UInt8(ascii: ":") else {
                    throw error("expected ':' after a member name", at: position)
                }
                position = skipWhitespace(base, position + 1, end)
                step = .value
            case .afterValue:
                position = skipWhitespace(base, position, end)
                guard depth > 0 else { return position }
                let container = Int(stack[depth])
                tokens[container].low &+= 1
                let isObject = tokens[container].kind == .object
                guard position < end else {
                    throw error(isObject ? "unterminated object" : "unterminated array", at: position)
                }
                let byte = base[position]
                if byte == UInt8(ascii: ",") {
                    position = skipWhitespace(base, position + 1, end)
                    step = isObject ? .memberName : .value
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    tokens[container].high = UInt32(truncatingIfNeeded: tokenCount)
                    depth -= 1
                } else {
                    throw error(
                        isObject ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array",
                        at: position
                    )
                }
            }
        }
    }

    private mutating func parseLiteral(
        _ literal: StaticString,
        _ kind: JSONToken.Kind,
        at start: Int
    ) throws(MessageDecodingError) -> Int {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - start >= length else { throw error("invalid literal", at: start) }
        let pointer = literal.utf8Start
        for position in 0..<length where bytes[start + position] != pointer[position] {
            throw error("invalid literal", at: start + position)
        }
        appendToken(JSONToken(kind: kind, isEscaped: false, start: Int32(truncatingIfNeeded: start), low: 0, high: 0))
        return start + length
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `quote`; returns the offset after its closing quote.
    @inline(__always)
    private mutating func parseString(at quote: Int) throws(MessageDecodingError) -> Int {
        let base = bytes.baseAddress!
        let end = bytes.count
        var position = quote &+ 1
        var escaped = false
        while true {
            if position &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let mask = isValidUTF8 ? JSONParser.delimiterMask(word) : JSONParser.attentionMask(word)
                if mask == 0 {
                    position &+= 8
                    continue
                }
                // The lowest flagged byte is always a real match.
                position &+= mask.trailingZeroBitCount &>> 3
            } else if position >= end {
                throw error("unterminated string", at: quote)
            }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position = try validateEscape(at: position)
            } else if byte < 0x20 {
                throw error("unescaped control character \(describe(byte)) in a string", at: position)
            } else if byte < 0x80 || isValidUTF8 {
                position &+= 1
            } else {
                position = try validateUTF8(at: position)
            }
        }
        appendToken(
            JSONToken(
                kind: .string,
                isEscaped: escaped,
                start: Int32(truncatingIfNeeded: quote &+ 1),
                low: UInt32(truncatingIfNeeded: position &- quote &- 1),
                high: 0
            )
        )
        return position &+ 1
    }

    /// Flags (high bit) the bytes of `word`, read little-endian, that are a quote, a backslash,
    /// a control character or not ASCII. Bytes above the lowest flagged one may be flagged
    /// spuriously; the lowest flagged byte is always a real match, and none is missed.
    @inline(__always)
    private static func attentionMask(_ word: UInt64) -> UInt64 {
        delimiterMask(word) | (word & 0x8080_8080_8080_8080)
    }

    /// As ``attentionMask(_:)``, for text known to be UTF-8: bytes that are not ASCII are not
    /// flagged (a byte of 0x80 or above is never below 0x20, so the control test passes it).
    @inline(__always)
    private static func delimiterMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highs
    }

    /// Validates the escape sequence at `position` (a backslash); returns the offset after it.
    private func validateEscape(at position: Int) throws(MessageDecodingError) -> Int {
        guard position + 1 < bytes.count else { throw error("unterminated escape sequence", at: position) }
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
                    throw error("unpaired UTF-16 surrogate escape", at: position)
                }
                let low = try hexQuad(at: position + 8)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("unpaired UTF-16 surrogate escape", at: position + 6)
                }
                return position + 12
            case 0xDC00...0xDFFF:
                throw error("unpaired UTF-16 surrogate escape", at: position)
            default:
                return position + 6
            }
        default:
            throw error("invalid escape character \(describe(bytes[position + 1]))", at: position + 1)
        }
    }

    private func hexQuad(at position: Int) throws(MessageDecodingError) -> UInt16 {
        var value: UInt16 = 0
        for index in position..<position + 4 {
            guard index < bytes.count, let digit = JSONParser.hexValue(bytes[index]) else {
                throw error("expected four hexadecimal digits in a \\u escape", at: min(index, bytes.count))
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
    private func validateUTF8(at position: Int) throws(MessageDecodingError) -> Int {
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
            throw error("invalid UTF-8 byte \(describe(lead))", at: position)
        }
        guard position + length <= bytes.count else { throw error("truncated UTF-8 sequence", at: position) }
        guard secondRange.contains(bytes[position + 1]) else {
            throw error("invalid UTF-8 sequence", at: position + 1)
        }
        for index in position + 2..<position + length where bytes[index] & 0xC0 != 0x80 {
            throw error("invalid UTF-8 sequence", at: index)
        }
        return position + length
    }

    // MARK: Numbers

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// What the digits of a number come to, before it becomes a token.
    private struct NumberParts {
        var negative = false
        var mantissa: UInt64 = 0
        /// Digits were dropped: the mantissa is not the exact value.
        var truncated = false
        var fractionDigits = 0
        var exponent = 0
        var isInteger = true
    }

    /// Parses the number starting at `start`; returns the offset after it.
    @inline(__always)
    private mutating func parseNumber(at start: Int) throws(MessageDecodingError) -> Int {
        if let (parts, end) = scanShortNumber(at: start) {
            try appendNumber(parts, start: start, end: end)
            return end
        }
        return try parseLongNumber(at: start)
    }

    /// The common case, read without overflow checks: an optional minus, at most 18 digits
    /// with an optional fraction, no exponent. `nil` for anything else (including every
    /// malformed number), which ``parseLongNumber(at:)`` then reads or rejects.
    @inline(__always)
    private func scanShortNumber(at start: Int) -> (NumberParts, Int)? {
        let base = bytes.baseAddress!
        let end = bytes.count
        var parts = NumberParts()
        var position = start
        if base[position] == UInt8(ascii: "-") {
            parts.negative = true
            position &+= 1
        }
        let digitsStart = position
        var mantissa: UInt64 = 0
        while position < end {
            let digit = base[position] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            position &+= 1
        }
        var digits = position &- digitsStart
        // No digit, or a leading zero followed by more digits: the long path says which error.
        guard digits > 0, digits == 1 || base[digitsStart] != UInt8(ascii: "0") else { return nil }
        if position < end, base[position] == UInt8(ascii: ".") {
            let fractionStart = position &+ 1
            position = fractionStart
            while position < end {
                let digit = base[position] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                position &+= 1
            }
            parts.fractionDigits = position &- fractionStart
            guard parts.fractionDigits > 0 else { return nil }
            digits &+= parts.fractionDigits
            parts.isInteger = false
        }
        guard digits <= 18 else { return nil }
        if position < end, base[position] | 0x20 == UInt8(ascii: "e") { return nil }
        parts.mantissa = mantissa
        return (parts, position)
    }

    /// Any number, digit by digit, with the exact rules for long mantissas and exponents.
    private mutating func parseLongNumber(at start: Int) throws(MessageDecodingError) -> Int {
        var offset = start
        var parts = NumberParts()
        if bytes[offset] == UInt8(ascii: "-") {
            parts.negative = true
            offset += 1
        }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("expected a digit", at: offset) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count, isDigit(bytes[offset]) { throw error("leading zero in a number", at: offset) }
        } else {
            while offset < bytes.count, isDigit(bytes[offset]) {
                let (scaled, overflow) = parts.mantissa.multipliedReportingOverflow(by: 10)
                let (sum, carry) = scaled.addingReportingOverflow(UInt64(bytes[offset] - UInt8(ascii: "0")))
                if overflow || carry {
                    parts.truncated = true
                } else if !parts.truncated {
                    parts.mantissa = sum
                }
                offset += 1
            }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            parts.isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw error("expected a digit after '.'", at: offset)
            }
            while offset < bytes.count, isDigit(bytes[offset]) {
                if !parts.truncated, parts.mantissa <= (UInt64.max - 9) / 10 {
                    parts.mantissa = parts.mantissa * 10 + UInt64(bytes[offset] - UInt8(ascii: "0"))
                    parts.fractionDigits += 1
                } else {
                    parts.truncated = true
                }
                offset += 1
            }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            parts.isInteger = false
            offset += 1
            var exponentNegative = false
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                exponentNegative = bytes[offset] == UInt8(ascii: "-")
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else {
                throw error("expected a digit in the exponent", at: offset)
            }
            while offset < bytes.count, isDigit(bytes[offset]) {
                if parts.exponent < 100_000 {
                    parts.exponent = parts.exponent * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                }
                offset += 1
            }
            if exponentNegative { parts.exponent = -parts.exponent }
        }
        try appendNumber(parts, start: start, end: offset)
        return offset
    }

    /// Appends the token of the number written in `start..<end`.
    @inline(__always)
    private mutating func appendNumber(_ parts: NumberParts, start: Int, end: Int) throws(MessageDecodingError) {
        let mantissa = parts.mantissa
        if parts.isInteger, !parts.truncated {
            if !parts.negative {
                appendNumber(mantissa > UInt64(Int.max) ? .unsignedInteger : .integer, mantissa, start: start)
                return
            }
            if mantissa != 0, mantissa <= UInt64(Int.max) + 1 {
                appendNumber(.integer, 0 &- mantissa, start: start)
                return
            }
        }
        let decimalExponent = parts.exponent - parts.fractionDigits
        if !parts.truncated, mantissa <= 1 << 53, (-22...22).contains(decimalExponent) {
            var value = Double(mantissa)
            let scale = JSONParser.exactPowersOfTen[abs(decimalExponent)]
            value = decimalExponent < 0 ? value / scale : value * scale
            appendNumber(.double, (parts.negative ? -value : value).bitPattern, start: start)
            return
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range", at: start) }
        appendNumber(.double, value.bitPattern, start: start)
    }

    @inline(__always)
    private mutating func appendNumber(_ kind: JSONToken.Kind, _ payload: UInt64, start: Int) {
        appendToken(
            JSONToken(
                kind: kind,
                isEscaped: false,
                start: Int32(truncatingIfNeeded: start),
                low: UInt32(truncatingIfNeeded: payload),
                high: UInt32(truncatingIfNeeded: payload >> 32)
            )
        )
    }

    // MARK: Helpers

    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Appends a container token, whose count and end are filled in as its contents are read;
    /// returns its index.
    @inline(__always)
    private mutating func appendToken(_ kind: JSONToken.Kind, start: Int) -> Int {
        let index = tokenCount
        appendToken(JSONToken(kind: kind, isEscaped: false, start: Int32(truncatingIfNeeded: start), low: 0, high: 0))
        return index
    }

    @inline(__always)
    private mutating func appendToken(_ token: JSONToken) {
        if tokenCount == tokenCapacity { growTokens() }
        (tokens + tokenCount).initialize(to: token)
        tokenCount &+= 1
    }

    private mutating func growTokens() {
        let grown = UnsafeMutablePointer<JSONToken>.allocate(capacity: tokenCapacity * 2)
        grown.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = grown
        tokenCapacity *= 2
    }

    /// The offset of the first byte at or after `position` that is not JSON whitespace.
    @inline(__always)
    private func skipWhitespace(_ base: UnsafePointer<UInt8>, _ position: Int, _ end: Int) -> Int {
        var position = position
        while position < end {
            let byte = base[position]
            // Every byte above the space is significant: one comparison in compact JSON.
            guard byte <= UInt8(ascii: " ") else { break }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): position &+= 1
            default: return position
            }
        }
        return position
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    private func error(_ detail: String, at offset: Int) -> MessageDecodingError {
        MessageDecodingError(code: .invalidJSON, byteOffset: offset, detail: detail)
    }
}
