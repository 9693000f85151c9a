/// Read access to a parsed document: its bytes and its tokens.
///
/// Only valid while the buffers it points into are alive; every use is scoped by
/// ``withDocument(_:maximumDepth:_:)``. `package` only as the type of ``CastJSONMessage``'s
/// decoding requirement; its members are internal.
package struct JSONDocument {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: UnsafeBufferPointer<JSONToken>

    /// Parses `payload` and runs `body` on the document.
    static func withDocument<Result>(
        _ payload: String,
        maximumDepth: Int,
        _ body: (JSONDocument) throws -> Result
    ) throws(MessageDecodingError) -> Result {
        var payload = payload
        do {
            // A String's contents are valid UTF-8 already: the parser does not check them again.
            return try payload.withUTF8 { bytes in
                try withDocument(bytes, maximumDepth: maximumDepth, isValidUTF8: true, body)
            }
        } catch {
            throw MessageDecodingError.from(error)
        }
    }

    /// Parses `bytes` and runs `body` on the document.
    ///
    /// - Parameter isValidUTF8: the bytes are a `String`'s contents, known to be UTF-8.
    static func withDocument<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int,
        isValidUTF8: Bool = false,
        _ body: (JSONDocument) throws -> Result
    ) throws(MessageDecodingError) -> Result {
        do {
            return try JSONParser.withTokens(bytes, maximumDepth: maximumDepth, isValidUTF8: isValidUTF8) { tokens in
                try body(JSONDocument(bytes: bytes, tokens: tokens))
            }
        } catch {
            throw MessageDecodingError.from(error)
        }
    }

    // MARK: Strings

    /// The string token at `index` as a `String`.
    @inline(__always)
    func string(at index: Int) -> String {
        let token = tokens[index]
        let raw = UnsafeBufferPointer(start: bytes.baseAddress! + Int(token.start), count: token.count)
        guard token.isEscaped else { return JSONDocument.string(raw) }
        return JSONDocument.unescape(raw)
    }

    /// A `String` of the raw bytes of a validated string without escapes.
    ///
    /// Copied into the string's own storage and checked there: a string of up to 15 ASCII
    /// bytes (most member names and wire identifiers) needs no further validation and no
    /// allocation.
    @inline(__always)
    static func string(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: raw.count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(raw))
            return raw.count
        }
    }

    /// Whether the string token at `index` equals `key`.
    func string(at index: Int, equals key: String) -> Bool {
        let token = tokens[index]
        guard !token.isEscaped else { return string(at: index) == key }
        let start = Int(token.start)
        let count = token.count
        if let match = key.utf8.withContiguousStorageIfAvailable({ keyBytes -> Bool in
            guard keyBytes.count == count else { return false }
            guard count > 0 else { return true }
            return memoryEquals(keyBytes.baseAddress!, bytes.baseAddress! + start, count)
        }) {
            return match
        }
        return key.utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[start..<start + count]))
    }

    /// Decodes the escapes of a validated raw string body.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = raw[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = UInt32(hexQuad(raw, index))
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = UInt32(hexQuad(raw, index + 2))
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                appendUTF8(scalar, to: &output)
            default: output.append(escape)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexQuad(_ raw: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt16 {
        var value: UInt16 = 0
        for position in index..<index + 4 {
            value = value << 4 | UInt16(JSONParser.hexValue(raw[position]) ?? 0)
        }
        return value
    }

    private static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Structure

    /// The index of the token after the value at `index` and all of its contents.
    @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.isContainer ? Int(token.high) : index + 1
    }

    // MARK: Objects

    /// The token index of the value of member `key` of the object at `object`, if present.
    func member(_ key: String, ofObjectAt object: Int) -> Int? {
        let token = tokens[object]
        var index = object + 1
        for _ in 0..<token.count {
            if string(at: index, equals: key) { return index + 1 }
            index = next(after: index + 1)
        }
        return nil
    }

    // MARK: Paths

    /// One step of the path from the root to a value.
    enum PathComponent {
        /// An object member, by the token index of its name.
        case member(Int)
        /// An array element.
        case index(Int)
        /// An object member, by name.
        case key(String)
    }

    /// The steps from the root to the value at token `target`.
    ///
    /// Computed by descending from the root, so decoding needs no path bookkeeping: only an
    /// error pays for it.
    func pathComponents(to target: Int) -> [PathComponent] {
        var components: [PathComponent] = []
        var index = 0
        while index != target {
            let token = tokens[index]
            guard token.isContainer, target < Int(token.high) else { break }
            if token.kind == .array {
                var child = index + 1
                var position = 0
                while next(after: child) <= target {
                    child = next(after: child)
                    position += 1
                }
                components.append(.index(position))
                index = child
            } else {
                var name = index + 1
                while next(after: name + 1) <= target { name = next(after: name + 1) }
                components.append(.member(name))
                if name == target { break }
                index = name + 1
            }
        }
        return components
    }

    /// The path to the value at token `target`, e.g. `status[0].media.duration`, optionally
    /// followed by one more step.
    func path(to target: Int, then extra: PathComponent? = nil) -> String {
        var result = ""
        for component in pathComponents(to: target) + (extra.map { [$0] } ?? []) {
            switch component {
            case .member(let name): JSONPath.appendMember(string(at: name), to: &result)
            case .index(let position): result += "[\(position)]"
            case .key(let name): JSONPath.appendMember(name, to: &result)
            }
        }
        return result
    }

    /// The coding path to the value at token `target`, optionally followed by one more step.
    func codingPath(to target: Int, then extra: PathComponent? = nil) -> [any CodingKey] {
        (pathComponents(to: target) + (extra.map { [$0] } ?? [])).map { component -> any CodingKey in
            switch component {
            case .member(let name): AnyCodingKey(string(at: name))
            case .index(let position): AnyCodingKey(intValue: position)
            case .key(let name): AnyCodingKey(name)
            }
        }
    }

    // MARK: Errors

    func wrongType(_ expected: String, at index: Int) -> MessageDecodingError {
        MessageDecodingError(
            code: .wrongType,
            path: path(to: index),
            detail: "expected \(expected), found \(tokens[index].typeName)"
        )
    }

    func invalidValue(_ detail: String, at index: Int) -> MessageDecodingError {
        MessageDecodingError(code: .invalidValue, path: path(to: index), detail: detail)
    }

    func missing(_ name: String, inObjectAt object: Int) -> MessageDecodingError {
        MessageDecodingError(code: .missingField, path: path(to: object, then: .key(name)))
    }

    // MARK: Typed reads

    @inline(__always)
    func bool(at index: Int) throws(MessageDecodingError) -> Bool {
        switch tokens[index].kind {
        case .trueValue: return true
        case .falseValue: return false
        default: throw wrongType("a boolean", at: index)
        }
    }

    @inline(__always)
    func checkedString(at index: Int) throws(MessageDecodingError) -> String {
        guard tokens[index].kind == .string else { throw wrongType("a string", at: index) }
        return string(at: index)
    }

    @inline(__always)
    func double(at index: Int) throws(MessageDecodingError) -> Double {
        let token = tokens[index]
        switch token.kind {
        case .double: return token.double
        case .integer: return Double(token.integer)
        case .unsignedInteger: return Double(token.payload)
        default: throw wrongType("a number", at: index)
        }
    }

    func float(at index: Int) throws(MessageDecodingError) -> Float {
        let value = try double(at: index)
        let result = Float(value)
        guard result.isFinite else { throw invalidValue("\(value) is out of range", at: index) }
        return result
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_: T.Type, at index: Int) throws(MessageDecodingError) -> T {
        let token = tokens[index]
        switch token.kind {
        case .integer:
            if let value = T(exactly: token.integer) { return value }
            throw invalidValue("\(token.integer) is out of range for \(T.self)", at: index)
        case .unsignedInteger:
            if let value = T(exactly: token.payload) { return value }
            throw invalidValue("\(token.payload) is out of range for \(T.self)", at: index)
        case .double:
            if let value = T(exactly: token.double) { return value }
            throw invalidValue("\(token.double) is not an integer in range", at: index)
        default:
            throw wrongType("an integer", at: index)
        }
    }

    // MARK: Values

    /// The value at token `index` as a ``JSONValue``.
    func value(at index: Int) -> JSONValue {
        let token = tokens[index]
        switch token.kind {
        case .null: return .null
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .integer: return .integer(token.integer)
        case .unsignedInteger: return .double(Double(token.payload))
        case .double: return .double(token.double)
        case .string: return .string(string(at: index))
        case .array:
            // `reserveCapacity` and `append` are specialized here; the standard library's
            // unspecialized `init(unsafeUninitializedCapacity:)` looks up the storage's generic
            // metadata on every call.
            var elements: [JSONValue] = []
            elements.reserveCapacity(token.count)
            var element = index + 1
            for _ in 0..<token.count {
                elements.append(value(at: element))
                element = next(after: element)
            }
            return .array(elements)
        case .object:
            var members = [String: JSONValue](minimumCapacity: token.count)
            var key = index + 1
            for _ in 0..<token.count {
                members[string(at: key)] = value(at: key + 1)
                key = next(after: key + 1)
            }
            return .object(members)
        }
    }
}

@inline(__always)
func memoryEquals(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var index = 0
    while index + 8 <= count {
        if UnsafeRawPointer(lhs + index).loadUnaligned(as: UInt64.self)
            != UnsafeRawPointer(rhs + index).loadUnaligned(as: UInt64.self)
        {
            return false
        }
        index += 8
    }
    while index < count {
        if lhs[index] != rhs[index] { return false }
        index += 1
    }
    return true
}

extension MessageDecodingError {
    /// Turns any error thrown while decoding into a ``MessageDecodingError``.
    static func from(_ error: any Error) -> MessageDecodingError {
        if let error = error as? MessageDecodingError { return error }
        guard let error = error as? DecodingError else {
            return MessageDecodingError(code: .invalidValue, detail: "\(error)")
        }
        switch error {
        case .typeMismatch(_, let context):
            return MessageDecodingError(
                code: .wrongType,
                path: JSONPath.string(context.codingPath),
                detail: context.debugDescription
            )
        case .valueNotFound(_, let context):
            return MessageDecodingError(
                code: .missingField,
                path: JSONPath.string(context.codingPath),
                detail: context.debugDescription
            )
        case .keyNotFound(let key, let context):
            return MessageDecodingError(
                code: .missingField,
                path: JSONPath.string(context.codingPath + [key]),
                detail: context.debugDescription
            )
        case .dataCorrupted(let context):
            return MessageDecodingError(
                code: .invalidValue,
                path: JSONPath.string(context.codingPath),
                detail: context.debugDescription
            )
        @unknown default:
            return MessageDecodingError(code: .invalidValue, detail: "\(error)")
        }
    }
}

/// Formats coding paths as `status[0].media.contentId`.
enum JSONPath {
    static func string(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path { append(key, to: &result) }
        return result
    }

    static func append(_ key: any CodingKey, to result: inout String) {
        if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
            result += "[\(index)]"
        } else {
            appendMember(key.stringValue, to: &result)
        }
    }

    static func appendMember(_ name: String, to result: inout String) {
        if !result.isEmpty { result += "." }
        result += name
    }
}

/// A coding key with any string or integer value.
struct AnyCodingKey: CodingKey, Hashable, Sendable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }

    init(_ string: String) { self.init(stringValue: string) }
}
