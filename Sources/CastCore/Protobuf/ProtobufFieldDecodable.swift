/// A message decoded by one loop over its fields: the type states the value decoding starts
/// from, its required fields, and how to read each field it knows in
/// ``readField(_:from:)``; the loop keeps the raw bytes of every other field in
/// ``unknownFields`` so that re-encoding is byte-exact.
package protocol ProtobufFieldDecodable: ProtobufMessage {
    /// The message with every field absent (required fields hold placeholders), where
    /// decoding starts.
    static var empty: Self { get }

    /// The fields that each encoding of the message must carry, by number (below 64) and
    /// name; none by default.
    static var requiredFields: KeyValuePairs<Int, StaticString> { get }

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
    package static var requiredFields: KeyValuePairs<Int, StaticString> { [:] }

    /// Decodes the message from ``empty``, then checks that each of ``requiredFields``
    /// occurred.
    /// - Throws: ``ProtobufError`` for an invalid field, or `missingRequiredField` naming the
    ///   first required field (in the order given) that did not occur.
    package init(reader: inout ProtobufReader) throws(ProtobufError) {
        self = Self.empty
        let seen = try readFields(from: &reader)
        for (number, name) in Self.requiredFields where !seen.contains(number) {
            throw reader.missingField(name, number: number)
        }
    }

    package mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        _ = try readFields(from: &reader)
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
