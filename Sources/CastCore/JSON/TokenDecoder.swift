/// A `Decoder` over a parsed ``JSONDocument``.
///
/// One instance decodes a whole document: nested values are decoded by moving ``current``,
/// so that no decoder is allocated per value. Coding paths are computed from token indices
/// only when asked for (errors, `codingPath`).
final class TokenDecoder {
    let document: JSONDocument
    /// The token index of the value being decoded.
    var current: Int
    /// Whether types that offer ``TokenDecodable`` decode through it.
    let usesTokenDecodable: Bool

    init(document: JSONDocument, current: Int = 0, usesTokenDecodable: Bool = true) {
        self.document = document
        self.current = current
        self.usesTokenDecodable = usesTokenDecodable
    }

    var tokens: UnsafeBufferPointer<JSONToken> { document.tokens }

    /// Decodes the value at token `index` as `T`.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if T.self == JSONValue.self { return document.value(at: index) as! T }
        if usesTokenDecodable, let fastType = T.self as? any TokenDecodable.Type {
            return try fastType.init(token: index, in: document) as! T
        }
        let saved = current
        current = index
        defer { current = saved }
        return try T(from: self)
    }

    /// A separate decoder for a container that may outlive the current decoding step.
    func child(at index: Int) -> TokenDecoder {
        TokenDecoder(document: document, current: index, usesTokenDecodable: usesTokenDecodable)
    }
}

// MARK: - Decoder

extension TokenDecoder: Decoder {
    var codingPath: [any CodingKey] { document.codingPath(to: current) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tokens[current].kind == .object else { throw document.wrongType("an object", at: current) }
        return KeyedDecodingContainer(TokenKeyedContainer<Key>(decoder: self, object: current))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tokens[current].kind == .array else { throw document.wrongType("an array", at: current) }
        return TokenUnkeyedContainer(decoder: self, array: current)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }
}

// MARK: - Single value

extension TokenDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tokens[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: current) }
    func decode(_ type: String.Type) throws -> String { try document.checkedString(at: current) }
    func decode(_ type: Double.Type) throws -> Double { try document.double(at: current) }
    func decode(_ type: Float.Type) throws -> Float { try document.float(at: current) }
    func decode(_ type: Int.Type) throws -> Int { try document.integer(type, at: current) }
    func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: current) }
    func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: current) }
    func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: current) }
    func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: current) }
    func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: current) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: current) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: current) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: current) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: current) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return document.value(at: current) as! T }
        return try T(from: self)
    }
}

// MARK: - Keyed

private struct TokenKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TokenDecoder
    let object: Int

    private var document: JSONDocument { decoder.document }

    var codingPath: [any CodingKey] { document.codingPath(to: object) }

    var allKeys: [Key] {
        var keys: [Key] = []
        var index = object + 1
        for _ in 0..<document.tokens[object].count {
            if let key = Key(stringValue: document.string(at: index)) { keys.append(key) }
            index = document.next(after: index + 1)
        }
        return keys
    }

    /// The token index of the value for `key`.
    @inline(__always)
    private func find(_ key: Key) -> Int? { document.member(key.stringValue, ofObjectAt: object) }

    /// The value token for `key`; absent or `null` is a missing field.
    @inline(__always)
    private func require(_ key: Key) throws(MessageDecodingError) -> Int {
        guard let index = find(key), document.tokens[index].kind != .null else {
            throw document.missing(key.stringValue, inObjectAt: object)
        }
        return index
    }

    /// The value token for `key` when present and not `null`.
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let index = find(key), document.tokens[index].kind != .null else { return nil }
        return index
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = find(key) else { throw document.missing(key.stringValue, inObjectAt: object) }
        return document.tokens[index].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try document.bool(at: require(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try document.checkedString(at: require(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try document.double(at: require(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try document.float(at: require(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try document.integer(type, at: require(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try document.integer(type, at: require(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try document.integer(type, at: require(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try document.integer(type, at: require(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try document.integer(type, at: require(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == JSONValue.self, let index = find(key) { return document.value(at: index) as! T }
        return try decoder.decodeValue(type, at: require(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = present(key) else { return nil }
        return try document.bool(at: index)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = present(key) else { return nil }
        return try document.checkedString(at: index)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = present(key) else { return nil }
        return try document.double(at: index)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = present(key) else { return nil }
        return try document.integer(type, at: index)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = present(key) else { return nil }
        return try decoder.decodeValue(type, at: index)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(at: require(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(at: require(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let index = document.member("super", ofObjectAt: object) else {
            throw document.missing("super", inObjectAt: object)
        }
        return decoder.child(at: index)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        guard let index = find(key) else { throw document.missing(key.stringValue, inObjectAt: object) }
        return decoder.child(at: index)
    }
}

// MARK: - Unkeyed

private struct TokenUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TokenDecoder
    let array: Int
    let elementCount: Int
    private(set) var currentIndex = 0
    /// The token index of the next element.
    private var position: Int

    init(decoder: TokenDecoder, array: Int) {
        self.decoder = decoder
        self.array = array
        self.elementCount = decoder.tokens[array].count
        self.position = array + 1
    }

    private var document: JSONDocument { decoder.document }

    var codingPath: [any CodingKey] { document.codingPath(to: array) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    /// Returns the next element's token index and moves past it.
    @inline(__always)
    private mutating func next() throws(MessageDecodingError) -> Int {
        guard currentIndex < elementCount else {
            throw MessageDecodingError(
                code: .missingField,
                path: document.path(to: array, then: .index(currentIndex)),
                detail: "the array has only \(elementCount) elements"
            )
        }
        let element = position
        position = document.next(after: position)
        currentIndex += 1
        return element
    }

    mutating func decodeNil() throws -> Bool {
        if currentIndex >= elementCount { _ = try next() }
        guard document.tokens[position].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try document.bool(at: next()) }
    mutating func decode(_ type: String.Type) throws -> String { try document.checkedString(at: next()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try document.double(at: next()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try document.float(at: next()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try document.integer(type, at: next()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try document.integer(type, at: next()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try document.integer(type, at: next()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try document.integer(type, at: next()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try document.integer(type, at: next()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try document.integer(type, at: next()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try document.integer(type, at: next()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try document.integer(type, at: next()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try document.integer(type, at: next()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try document.integer(type, at: next()) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decodeValue(type, at: next())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(at: next()).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try decoder.child(at: next()).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        decoder.child(at: try next())
    }
}
