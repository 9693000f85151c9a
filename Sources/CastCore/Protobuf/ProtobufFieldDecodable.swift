/// A message decoded by one loop over its fields: the type reads each field it knows in
/// ``readField(_:from:)``, and the loop keeps the raw bytes of every other field in
/// ``unknownFields`` so that re-encoding is byte-exact.
package protocol ProtobufFieldDecodable: ProtobufMessage {
    /// Raw bytes of the fields this type does not know, in the order they arrived.
    var unknownFields: [UInt8] { get set }

    /// Reads `field` from `reader` when it is one of this message's fields.
    ///
    /// Scalars replace the current value, repeated fields append and embedded messages
    /// merge, as protobuf does.
    /// - Returns: `false`, having read nothing, when the message does not know the field.
    /// - Throws: ``ProtobufError`` when the field's value is not valid.
    mutating func readField(_ field: ProtobufField, from reader: inout ProtobufReader) throws(ProtobufError) -> Bool
}

extension ProtobufFieldDecodable {
    package mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        _ = try readFields(from: &reader)
    }

    /// Reads every remaining field of the message, then checks that each of `required`
    /// occurred.
    /// - Throws: ``ProtobufError`` for an invalid field, or `missingRequiredField` naming the
    ///   first required field (in the order given) that did not occur.
    package mutating func readFields(
        from reader: inout ProtobufReader,
        required: KeyValuePairs<Int, StaticString>
    ) throws(ProtobufError) {
        let seen = try readFields(from: &reader)
        for (number, name) in required where !seen.contains(number) {
            throw reader.missingField(name, number: number)
        }
    }

    /// Reads every remaining field and returns the numbers of the known fields that occurred.
    private mutating func readFields(from reader: inout ProtobufReader) throws(ProtobufError) -> ProtobufFieldSet {
        var seen = ProtobufFieldSet()
        while let field = try reader.nextField() {
            if try readField(field, from: &reader) {
                seen.insert(field.number)
            } else {
                reader.appendBytes(in: try reader.skip(field), to: &unknownFields)
            }
        }
        return seen
    }
}

/// The field numbers 1 to 63 that occurred in a message, as one bit each (required fields
/// have small numbers; a larger number never counts as seen).
private struct ProtobufFieldSet {
    private var bits: UInt64 = 0

    mutating func insert(_ number: Int) {
        if number < 64 { bits |= 1 << UInt64(number) }
    }

    func contains(_ number: Int) -> Bool {
        number < 64 && bits & (1 << UInt64(number)) != 0
    }
}
