/// A `Decoder` over a parsed ``JSONDocument``.
///
/// One instance decodes a whole document: nested values are decoded by moving ``current``
/// and pushing onto ``pathStack``, so that no decoder is allocated per value and the coding
/// path is only materialised when an error is reported.
final class TokenDecoder {
    /// One step of the coding path.
    enum PathComponent {
        /// An object member, by the token index of its name.
        case member(Int)
        /// An array element.
        case index(Int)
        /// An object member, by name.
        case key(String)
    }

    let document: JSONDocument
    /// The token index of the value being decoded.
    var current: Int
    var pathStack: [PathComponent]

    init(document: JSONDocument, current: Int = 0, pathStack: [PathComponent] = []) {
        self.document = document
        self.current = current
        self.pathStack = pathStack
        self.pathStack.reserveCapacity(16)
    }

    var tokens: UnsafeBufferPointer<JSONToken> { document.tokens }

    // MARK: Paths

    func codingPath(depth: Int, extra: PathComponent? = nil) -> [any CodingKey] {
        var path: [any CodingKey] = []
        for component in pathStack.prefix(depth) { path.append(codingKey(component)) }
        if let extra { path.append(codingKey(extra)) }
        return path
    }

    private func codingKey(_ component: PathComponent) -> AnyCodingKey {
        switch component {
        case .member(let index): AnyCodingKey(document.string(at: index))
        case .index(let index): AnyCodingKey(intValue: index)
        case .key(let name): AnyCodingKey(name)
        }
    }

    func pathString(depth: Int, extra: PathComponent? = nil) -> String {
        var result = ""
        for component in pathStack.prefix(depth) { append(component, to: &result) }
        if let extra { append(extra, to: &result) }
        return result
    }

    private func append(_ component: PathComponent, to result: inout String) {
        switch component {
        case .member(let index): JSONPath.appendMember(document.string(at: index), to: &result)
        case .index(let index): result += "[\(index)]"
        case .key(let name): JSONPath.appendMember(name, to: &result)
        }
    }

    // MARK: Errors

    func wrongType(_ expected: String, at index: Int, depth: Int, extra: PathComponent?) -> MessageDecodingError {
        MessageDecodingError(
            code: .wrongType,
            path: pathString(depth: depth, extra: extra),
            detail: "expected \(expected), found \(tokens[index].typeName)"
        )
    }

    func invalidValue(_ detail: String, depth: Int, extra: PathComponent?) -> MessageDecodingError {
        MessageDecodingError(code: .invalidValue, path: pathString(depth: depth, extra: extra), detail: detail)
    }

    func missing(_ name: String, depth: Int) -> MessageDecodingError {
        MessageDecodingError(code: .missingField, path: pathString(depth: depth, extra: .key(name)))
    }

    // MARK: Primitives

    @inline(__always)
    func bool(at index: Int, depth: Int, extra: PathComponent?) throws -> Bool {
        switch tokens[index].kind {
        case .trueValue: return true
        case .falseValue: return false
        default: throw wrongType("a boolean", at: index, depth: depth, extra: extra)
        }
    }

    @inline(__always)
    func string(at index: Int, depth: Int, extra: PathComponent?) throws -> String {
        guard tokens[index].kind == .string else {
            throw wrongType("a string", at: index, depth: depth, extra: extra)
        }
        return document.string(at: index)
    }

    @inline(__always)
    func double(at index: Int, depth: Int, extra: PathComponent?) throws -> Double {
        let token = tokens[index]
        switch token.kind {
        case .double: return token.double
        case .integer: return Double(token.integer)
        default: throw wrongType("a number", at: index, depth: depth, extra: extra)
        }
    }

    func float(at index: Int, depth: Int, extra: PathComponent?) throws -> Float {
        let value = try double(at: index, depth: depth, extra: extra)
        let result = Float(value)
        guard result.isFinite else { throw invalidValue("\(value) is out of range", depth: depth, extra: extra) }
        return result
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_: T.Type, at index: Int, depth: Int, extra: PathComponent?) throws -> T {
        let token = tokens[index]
        switch token.kind {
        case .integer:
            if let value = T(exactly: token.integer) { return value }
            throw invalidValue("\(token.integer) is out of range for \(T.self)", depth: depth, extra: extra)
        case .double:
            if let value = T(exactly: token.double) { return value }
            throw invalidValue("\(token.double) is not an integer in range", depth: depth, extra: extra)
        default:
            throw wrongType("an integer", at: index, depth: depth, extra: extra)
        }
    }

    // MARK: Nested values

    @inline(__always)
    func decodeNested<T: Decodable>(_ type: T.Type, at index: Int, depth: Int, component: PathComponent) throws -> T {
        if T.self == JSONValue.self { return document.value(at: index) as! T }
        if pathStack.count > depth { pathStack.removeLast(pathStack.count - depth) }
        pathStack.append(component)
        let saved = current
        current = index
        defer {
            current = saved
            pathStack.removeLast()
        }
        return try T(from: self)
    }

    /// A separate decoder for a container that may outlive the current decoding step.
    func child(at index: Int, depth: Int, component: PathComponent) -> TokenDecoder {
        TokenDecoder(document: document, current: index, pathStack: Array(pathStack.prefix(depth)) + [component])
    }
}

// MARK: - Decoder

extension TokenDecoder: Decoder {
    var codingPath: [any CodingKey] { codingPath(depth: pathStack.count) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tokens[current].kind == .object else {
            throw wrongType("an object", at: current, depth: pathStack.count, extra: nil)
        }
        return KeyedDecodingContainer(TokenKeyedContainer<Key>(decoder: self, object: current, depth: pathStack.count))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tokens[current].kind == .array else {
            throw wrongType("an array", at: current, depth: pathStack.count, extra: nil)
        }
        return TokenUnkeyedContainer(decoder: self, array: current, depth: pathStack.count)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

// MARK: - Single value

extension TokenDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tokens[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: String.Type) throws -> String { try string(at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: Float.Type) throws -> Float { try float(at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type, at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: Int32.Type) throws -> Int32 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: Int64.Type) throws -> Int64 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type, at: current, depth: pathStack.count, extra: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try integer(type, at: current, depth: pathStack.count, extra: nil)
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return document.value(at: current) as! T }
        return try T(from: self)
    }
}

// MARK: - Keyed

private struct TokenKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TokenDecoder
    let object: Int
    let depth: Int

    var codingPath: [any CodingKey] { decoder.codingPath(depth: depth) }

    var allKeys: [Key] {
        var keys: [Key] = []
        var index = object + 1
        for _ in 0..<decoder.tokens[object].count {
            if let key = Key(stringValue: decoder.document.string(at: index)) { keys.append(key) }
            index = Int(decoder.tokens[index + 1].next)
        }
        return keys
    }

    /// The token index of the member name for `key`.
    @inline(__always)
    private func find(_ key: Key) -> Int? { find(name: key.stringValue) }

    @inline(__always)
    private func find(name: String) -> Int? {
        let tokens = decoder.tokens
        var index = object + 1
        for _ in 0..<tokens[object].count {
            if decoder.document.string(at: index, equals: name) { return index }
            index = Int(tokens[index + 1].next)
        }
        return nil
    }

    @inline(__always)
    private func require(_ key: Key) throws -> Int {
        guard let index = find(key) else { throw decoder.missing(key.stringValue, depth: depth) }
        return index
    }

    /// The value token for `key` when present and not `null`.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let index = find(key), decoder.tokens[index + 1].kind != .null else { return nil }
        return index
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.tokens[try require(key) + 1].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let name = try require(key)
        return try decoder.bool(at: name + 1, depth: depth, extra: .member(name))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let name = try require(key)
        return try decoder.string(at: name + 1, depth: depth, extra: .member(name))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let name = try require(key)
        return try decoder.double(at: name + 1, depth: depth, extra: .member(name))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let name = try require(key)
        return try decoder.float(at: name + 1, depth: depth, extra: .member(name))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
        let name = try require(key)
        return try decoder.integer(type, at: name + 1, depth: depth, extra: .member(name))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let name = try require(key)
        return try decoder.decodeNested(type, at: name + 1, depth: depth, component: .member(name))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let name = present(key) else { return nil }
        return try decoder.bool(at: name + 1, depth: depth, extra: .member(name))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let name = present(key) else { return nil }
        return try decoder.string(at: name + 1, depth: depth, extra: .member(name))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let name = present(key) else { return nil }
        return try decoder.double(at: name + 1, depth: depth, extra: .member(name))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let name = present(key) else { return nil }
        return try decoder.integer(type, at: name + 1, depth: depth, extra: .member(name))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let name = present(key) else { return nil }
        return try decoder.decodeNested(type, at: name + 1, depth: depth, component: .member(name))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let name = try require(key)
        return try decoder.child(at: name + 1, depth: depth, component: .member(name)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let name = try require(key)
        return try decoder.child(at: name + 1, depth: depth, component: .member(name)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let name = find(name: "super") else {
            throw decoder.missing("super", depth: depth)
        }
        return decoder.child(at: name + 1, depth: depth, component: .member(name))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let name = try require(key)
        return decoder.child(at: name + 1, depth: depth, component: .member(name))
    }
}

// MARK: - Unkeyed

private struct TokenUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TokenDecoder
    let depth: Int
    let elementCount: Int
    private(set) var currentIndex = 0
    /// The token index of the next element.
    private var position: Int

    init(decoder: TokenDecoder, array: Int, depth: Int) {
        self.decoder = decoder
        self.depth = depth
        self.elementCount = Int(decoder.tokens[array].count)
        self.position = array + 1
    }

    var codingPath: [any CodingKey] { decoder.codingPath(depth: depth) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    /// Returns the next element's token index and its path component, and moves past it.
    @inline(__always)
    private mutating func next() throws -> (Int, TokenDecoder.PathComponent) {
        guard currentIndex < elementCount else {
            throw MessageDecodingError(
                code: .missingField,
                path: decoder.pathString(depth: depth, extra: .index(currentIndex)),
                detail: "the array has only \(elementCount) elements"
            )
        }
        let element = (position, TokenDecoder.PathComponent.index(currentIndex))
        position = Int(decoder.tokens[position].next)
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        if currentIndex >= elementCount { _ = try next() }
        guard decoder.tokens[position].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (index, path) = try next()
        return try decoder.bool(at: index, depth: depth, extra: path)
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let (index, path) = try next()
        return try decoder.string(at: index, depth: depth, extra: path)
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let (index, path) = try next()
        return try decoder.double(at: index, depth: depth, extra: path)
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let (index, path) = try next()
        return try decoder.float(at: index, depth: depth, extra: path)
    }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    @inline(__always)
    private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let (index, path) = try next()
        return try decoder.integer(type, at: index, depth: depth, extra: path)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (index, path) = try next()
        return try decoder.decodeNested(type, at: index, depth: depth, component: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (index, path) = try next()
        return try decoder.child(at: index, depth: depth, component: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (index, path) = try next()
        return try decoder.child(at: index, depth: depth, component: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (index, path) = try next()
        return decoder.child(at: index, depth: depth, component: path)
    }
}
