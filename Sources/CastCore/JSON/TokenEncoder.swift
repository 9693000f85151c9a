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
    let codingPath: [any CodingKey]

    init(codingPath: [any CodingKey] = []) {
        self.codingPath = codingPath
    }

    static func checked(_ value: Double, path: [any CodingKey]) throws -> EncodedValue {
        guard value.isFinite else {
            throw MessageEncodingError(
                code: .invalidValue,
                path: JSONPath.string(path),
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
    static func encodeNested<T: Encodable>(_ value: T, path: @autoclosure () -> [any CodingKey]) throws -> EncodedValue
    {
        if T.self == JSONValue.self { return try checked(value as! JSONValue, path: path()) }
        let encoder = TokenEncoder(codingPath: path())
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
        KeyedEncodingContainer(TokenKeyedEncodingContainer<Key>(object: object(), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        TokenUnkeyedEncodingContainer(array: array(), codingPath: codingPath)
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
    let codingPath: [any CodingKey]

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
        object.set(try TokenEncoder.encodeNested(value, path: path(key)), for: key.stringValue)
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
        return KeyedEncodingContainer(TokenKeyedEncodingContainer<NestedKey>(object: nested, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested: EncodedArray
        if case .array(let existing)? = object.existing(key.stringValue) {
            nested = existing
        } else {
            nested = EncodedArray()
            object.set(.array(nested), for: key.stringValue)
        }
        return TokenUnkeyedEncodingContainer(array: nested, codingPath: path(key))
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TokenEncoder(codingPath: codingPath + [AnyCodingKey("super")])
        object.set(.deferred(encoder), for: "super")
        return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let encoder = TokenEncoder(codingPath: path(key))
        object.set(.deferred(encoder), for: key.stringValue)
        return encoder
    }
}

private struct TokenUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let array: EncodedArray
    let codingPath: [any CodingKey]

    var count: Int { array.values.count }

    private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: array.values.count)] }

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
        array.values.append(try TokenEncoder.encodeNested(value, path: nextPath))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let path = nextPath
        array.values.append(.object(nested))
        return KeyedEncodingContainer(TokenKeyedEncodingContainer<NestedKey>(object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let path = nextPath
        array.values.append(.array(nested))
        return TokenUnkeyedEncodingContainer(array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = TokenEncoder(codingPath: nextPath)
        array.values.append(.deferred(encoder))
        return encoder
    }
}
