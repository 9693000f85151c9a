/// A JSON value under construction by ``TokenEncoder``; objects keep member order.
enum EncodedValue {
    case null
    case bool(Bool)
    case integer(Int)
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case json(JSONValue)
    case object(EncodedObject)
    case array(EncodedArray)
    /// A value written later through a super-encoder.
    case deferred(TokenEncoder)
    /// JSON text already written by a ``TokenEncodable`` value.
    case fragment([UInt8])

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.writeNull()
        case .bool(let value): writer.write(value)
        case .integer(let value): writer.write(value)
        case .unsigned(let value): writer.write(value)
        case .double(let value): writer.write(value)
        case .string(let value): writer.write(value)
        case .json(let value): writer.write(value)
        case .object(let object):
            writer.append(UInt8(ascii: "{"))
            for index in object.keys.indices {
                if index > 0 { writer.append(UInt8(ascii: ",")) }
                writer.write(object.keys[index])
                writer.append(UInt8(ascii: ":"))
                object.values[index].write(to: &writer)
            }
            writer.append(UInt8(ascii: "}"))
        case .array(let array):
            writer.append(UInt8(ascii: "["))
            for index in array.values.indices {
                if index > 0 { writer.append(UInt8(ascii: ",")) }
                array.values[index].write(to: &writer)
            }
            writer.append(UInt8(ascii: "]"))
        case .deferred(let encoder):
            (encoder.value ?? .object(EncodedObject())).write(to: &writer)
        case .fragment(let bytes):
            bytes.withUnsafeBufferPointer { writer.append($0) }
            writer.needsComma = true
        }
    }

    var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .integer(let value): .integer(value)
        case .unsigned(let value): Int(exactly: value).map(JSONValue.integer) ?? .double(Double(value))
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .json(let value): value
        case .object(let object):
            .object(Dictionary(zip(object.keys, object.values.map(\.jsonValue)), uniquingKeysWith: { _, last in last }))
        case .array(let array): .array(array.values.map(\.jsonValue))
        case .deferred(let encoder): (encoder.value ?? .object(EncodedObject())).jsonValue
        case .fragment(let bytes): (try? JSONValue(parsing: bytes)) ?? .null
        }
    }
}

final class EncodedObject {
    var keys: [String] = []
    var values: [EncodedValue] = []

    func set(_ value: EncodedValue, for key: String) {
        if let index = keys.firstIndex(of: key) {
            values[index] = value
        } else {
            keys.append(key)
            values.append(value)
        }
    }

    func existing(_ key: String) -> EncodedValue? {
        keys.firstIndex(of: key).map { values[$0] }
    }
}

final class EncodedArray {
    var values: [EncodedValue] = []
}

/// An `Encoder` building an ``EncodedValue`` tree that keeps member order.
final class TokenEncoder {
    var value: EncodedValue?
    /// The encoder of the enclosing value and the key of this one, from which the coding path
    /// is computed when asked for (errors, `codingPath`).
    let parent: TokenEncoder?
    let key: (any CodingKey)?
    /// Whether nested values that offer ``TokenEncodable`` write through it.
    let usesTokenEncodable: Bool

    init(parent: TokenEncoder? = nil, key: (any CodingKey)? = nil, usesTokenEncodable: Bool = true) {
        self.parent = parent
        self.key = key
        self.usesTokenEncodable = parent?.usesTokenEncodable ?? usesTokenEncodable
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var encoder: TokenEncoder? = self
        while let current = encoder {
            if let key = current.key { path.append(key) }
            encoder = current.parent
        }
        return path.reversed()
    }

    static func checked(_ value: Double, path: @autoclosure () -> [any CodingKey]) throws -> EncodedValue {
        guard value.isFinite else {
            throw MessageEncodingError(
                code: .invalidValue,
                path: JSONPath.string(path()),
                detail: "\(value) has no JSON representation"
            )
        }
        return .double(value)
    }

    static func checked(_ value: JSONValue, path: [any CodingKey]) throws -> EncodedValue {
        func validate(_ value: JSONValue, _ path: [any CodingKey]) throws {
            switch value {
            case .double(let number): _ = try checked(number, path: path)
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    try validate(element, path + [AnyCodingKey(intValue: index)])
                }
            case .object(let members):
                for (key, member) in members { try validate(member, path + [AnyCodingKey(key)]) }
            default: break
            }
        }
        try validate(value, path)
        return .json(value)
    }

    /// Encodes `value` as a nested value at `path`.
    static func encodeNested<T: Encodable>(
        _ value: T,
        parent: TokenEncoder?,
        key: (any CodingKey)?,
        usesTokenEncodable: Bool = true
    ) throws -> EncodedValue {
        if T.self == JSONValue.self {
            return try checked(value as! JSONValue, path: (parent?.codingPath ?? []) + (key.map { [$0] } ?? []))
        }
        if parent?.usesTokenEncodable ?? usesTokenEncodable, let fast = value as? any TokenEncodable {
            var writer = JSONWriter(capacity: 64)
            // A non-finite number ends the fast path; the Encodable path below reports where it is.
            if (try? fast.write(to: &writer)) != nil { return .fragment(writer.bytes) }
        }
        let encoder = TokenEncoder(parent: parent, key: key, usesTokenEncodable: usesTokenEncodable)
        try value.encode(to: encoder)
        return encoder.value ?? .object(EncodedObject())
    }

    func object() -> EncodedObject {
        if case .object(let object)? = value { return object }
        let object = EncodedObject()
        value = .object(object)
        return object
    }

    func array() -> EncodedArray {
        if case .array(let array)? = value { return array }
        let array = EncodedArray()
        value = .array(array)
        return array
    }
}

extension TokenEncoder: Encoder {
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(TokenKeyedEncodingContainer<Key>(object: object(), encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        TokenUnkeyedEncodingContainer(array: array(), encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }
}

extension TokenEncoder: SingleValueEncodingContainer {
    func encodeNil() { value = .null }
    func encode(_ value: Bool) { self.value = .bool(value) }
    func encode(_ value: String) { self.value = .string(value) }
    func encode(_ value: Double) throws { self.value = try TokenEncoder.checked(value, path: codingPath) }
    func encode(_ value: Float) throws { self.value = try TokenEncoder.checked(Double(value), path: codingPath) }
    func encode(_ value: Int) { self.value = .integer(value) }
    func encode(_ value: Int8) { self.value = .integer(Int(value)) }
    func encode(_ value: Int16) { self.value = .integer(Int(value)) }
    func encode(_ value: Int32) { self.value = .integer(Int(value)) }
    func encode(_ value: Int64) { self.value = .integer(Int(value)) }
    func encode(_ value: UInt) { self.value = .unsigned(UInt64(value)) }
    func encode(_ value: UInt8) { self.value = .integer(Int(value)) }
    func encode(_ value: UInt16) { self.value = .integer(Int(value)) }
    func encode(_ value: UInt32) { self.value = .integer(Int(value)) }
    func encode(_ value: UInt64) { self.value = .unsigned(value) }
    func encode<T: Encodable>(_ value: T) throws {
        if let json = value as? JSONValue {
            self.value = try TokenEncoder.checked(json, path: codingPath)
        } else {
            try value.encode(to: self)
        }
    }
}

private struct TokenKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: EncodedObject
    /// The encoder whose value this container writes; it carries the coding path.
    let encoder: TokenEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) { object.set(.bool(value), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) { object.set(.string(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try TokenEncoder.checked(value, path: path(key)), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try TokenEncoder.checked(Double(value), path: path(key)), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) { object.set(.integer(value), for: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) { object.set(.unsigned(UInt64(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) { object.set(.integer(Int(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) { object.set(.unsigned(value), for: key.stringValue) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try TokenEncoder.encodeNested(value, parent: encoder, key: key), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested: EncodedObject
        if case .object(let existing)? = object.existing(key.stringValue) {
            nested = existing
        } else {
            nested = EncodedObject()
            object.set(.object(nested), for: key.stringValue)
        }
        return KeyedEncodingContainer(
            TokenKeyedEncodingContainer<NestedKey>(object: nested, encoder: TokenEncoder(parent: encoder, key: key))
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: EncodedArray
        if case .array(let existing)? = object.existing(key.stringValue) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(.array(nested), for: key.stringValue)
        }
        return TokenUnkeyedEncodingContainer(array: nested, encoder: TokenEncoder(parent: encoder, key: key))
    }

    mutating func superEncoder() -> any Encoder {
        let superEncoder = TokenEncoder(parent: encoder, key: AnyCodingKey("super"))
        object.set(.deferred(superEncoder), for: "super")
        return superEncoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let superEncoder = TokenEncoder(parent: encoder, key: key)
        object.set(.deferred(superEncoder), for: key.stringValue)
        return superEncoder
    }
}

private struct TokenUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let array: EncodedArray
    /// The encoder whose value this container writes; it carries the coding path.
    let encoder: TokenEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.values.count }

    private var nextKey: AnyCodingKey { AnyCodingKey(intValue: array.values.count) }
    private var nextPath: [any CodingKey] { codingPath + [nextKey] }

    mutating func encodeNil() { array.values.append(.null) }
    mutating func encode(_ value: Bool) { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        array.values.append(try TokenEncoder.checked(value, path: nextPath))
    }
    mutating func encode(_ value: Float) throws {
        array.values.append(try TokenEncoder.checked(Double(value), path: nextPath))
    }
    mutating func encode(_ value: Int) { array.values.append(.integer(value)) }
    mutating func encode(_ value: Int8) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: Int16) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: Int32) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: Int64) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: UInt) { array.values.append(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: UInt16) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: UInt32) { array.values.append(.integer(Int(value))) }
    mutating func encode(_ value: UInt64) { array.values.append(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.values.append(try TokenEncoder.encodeNested(value, parent: encoder, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let pathAnchor = TokenEncoder(parent: encoder, key: nextKey)
        array.values.append(.object(nested))
        return KeyedEncodingContainer(TokenKeyedEncodingContainer<NestedKey>(object: nested, encoder: pathAnchor))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let pathAnchor = TokenEncoder(parent: encoder, key: nextKey)
        array.values.append(.array(nested))
        return TokenUnkeyedEncodingContainer(array: nested, encoder: pathAnchor)
    }

    mutating func superEncoder() -> any Encoder {
        let superEncoder = TokenEncoder(parent: encoder, key: nextKey)
        array.values.append(.deferred(superEncoder))
        return superEncoder
    }
}
