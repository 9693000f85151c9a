/// A type that writes itself straight to JSON text, without `Codable`'s containers.
///
/// The message and media types conform in addition to `Encodable` and write the same JSON
/// (members in declaration order, `nil` omitted). A non-finite number stops the fast path
/// with ``NonFiniteNumber``; the caller then encodes through `Encodable` to report the path.
protocol TokenEncodable {
    /// Writes the value.
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber)
}

/// An object whose members a ``TokenEncodable`` conformance writes one by one.
protocol TokenEncodableObject: TokenEncodable {
    /// Writes the members, each through ``JSONWriter/member(_:_:)``.
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber)
}

extension TokenEncodableObject {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        writer.beginObject()
        try writeMembers(to: &writer)
        writer.endObject()
    }
}

/// A NaN or infinite number, which JSON cannot represent.
package struct NonFiniteNumber: Error {}

// MARK: - Structure

extension JSONWriter {
    mutating func beginObject() {
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func beginArray() {
        append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes the member `name` unless `value` is `nil`.
    @inline(__always)
    mutating func member<Value: TokenEncodable>(_ name: StaticString, _ value: Value?) throws(NonFiniteNumber) {
        guard let value else { return }
        memberName(name)
        try value.write(to: &self)
        needsComma = true
    }

    /// Writes the member `name`.
    @inline(__always)
    mutating func member<Value: TokenEncodable>(_ name: StaticString, _ value: Value) throws(NonFiniteNumber) {
        memberName(name)
        try value.write(to: &self)
        needsComma = true
    }

    /// Writes members a type does not model but kept from what it decoded, after its own.
    mutating func unknownMembers(_ members: [String: JSONValue]) throws(NonFiniteNumber) {
        guard !members.isEmpty else { return }
        for key in members.keys.sorted() {
            if needsComma { append(UInt8(ascii: ",")) }
            write(key)
            append(UInt8(ascii: ":"))
            try writeChecked(members[key]!)
            needsComma = true
        }
    }

    @inline(__always)
    mutating func memberName(_ name: StaticString) {
        if needsComma { append(UInt8(ascii: ",")) }
        append(UInt8(ascii: "\""))
        append(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        append(UInt8(ascii: "\""))
        append(UInt8(ascii: ":"))
    }

    /// Writes `value`, throwing for non-finite numbers anywhere inside it.
    mutating func writeChecked(_ value: JSONValue) throws(NonFiniteNumber) {
        if case .double(let number) = value, !number.isFinite { throw NonFiniteNumber() }
        switch value {
        case .array(let elements):
            beginArray()
            for element in elements {
                if needsComma { append(UInt8(ascii: ",")) }
                try writeChecked(element)
                needsComma = true
            }
            endArray()
        case .object(let members):
            beginObject()
            for key in members.keys.sorted() {
                if needsComma { append(UInt8(ascii: ",")) }
                write(key)
                append(UInt8(ascii: ":"))
                try writeChecked(members[key]!)
                needsComma = true
            }
            endObject()
        default:
            write(value)
        }
    }
}

// MARK: - Primitives

extension Bool: TokenEncodable {
    func write(to writer: inout JSONWriter) { writer.write(self) }
}

extension String: TokenEncodable {
    func write(to writer: inout JSONWriter) { writer.write(self) }
}

extension Int: TokenEncodable {
    func write(to writer: inout JSONWriter) { writer.write(self) }
}

extension Double: TokenEncodable {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        guard isFinite else { throw NonFiniteNumber() }
        writer.write(self)
    }
}

extension JSONValue: TokenEncodable {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.writeChecked(self)
    }
}

extension Array: TokenEncodable where Element: TokenEncodable {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        writer.beginArray()
        for element in self {
            if writer.needsComma { writer.append(UInt8(ascii: ",")) }
            try element.write(to: &writer)
            writer.needsComma = true
        }
        writer.endArray()
    }
}

extension Dictionary: TokenEncodable where Key == String, Value: TokenEncodable {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        writer.beginObject()
        for key in keys.sorted() {
            if writer.needsComma { writer.append(UInt8(ascii: ",")) }
            writer.write(key)
            writer.append(UInt8(ascii: ":"))
            try self[key]!.write(to: &writer)
            writer.needsComma = true
        }
        writer.endObject()
    }
}

/// Wire identifiers write their raw value.
extension TokenEncodable where Self: RawRepresentable, RawValue: TokenEncodable {
    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try rawValue.write(to: &writer)
    }
}
