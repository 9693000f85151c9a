/// A message type that the protobuf codec can decode and encode.
///
/// Each message writes its fields in field-number order followed by the raw bytes of the
/// fields it did not know, which makes re-encoding a decoded message byte-exact for any
/// input written in canonical order (as every protobuf library writes).
///
/// Required fields are checked per occurrence: when an embedded message occurs more than
/// once, the first occurrence must carry them itself. Protobuf runtimes check only the
/// merged result; no writer splits a message that way, and the stricter rule lets the
/// error name the offset of the incomplete occurrence.
package protocol ProtobufMessage {
    /// The message's name in the `.proto` file, used in errors.
    static var protobufName: StaticString { get }

    /// Decodes the message from `reader`, checking its required fields.
    init(reader: inout ProtobufReader) throws(ProtobufError)

    /// Merges another encoding of the message into this value, as protobuf does when an
    /// embedded message occurs more than once: scalars are replaced, repeated fields
    /// appended and embedded messages merged. Works in place, so merging many
    /// occurrences stays linear.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError)

    /// The exact number of bytes ``write(to:)`` produces.
    var serializedSize: Int { get }

    /// Writes the message's fields.
    func write(to writer: inout ProtobufWriter)
}

extension ProtobufMessage {
    /// Decodes a whole buffer as one message.
    package init(decoding bytes: some Collection<UInt8>) throws(ProtobufError) {
        self = try ProtobufReader.withReader(over: bytes, message: Self.protobufName) {
            (reader: inout ProtobufReader) throws(ProtobufError) -> Self in
            try Self(reader: &reader)
        }
    }

    /// Encodes the message into a new array.
    package func encoded() -> [UInt8] {
        let size = serializedSize
        return ProtobufWriter.encode(size: size) { write(to: &$0) }
    }
}

extension ProtobufReader {
    /// Reads an element of a repeated embedded-message field.
    package mutating func readMessage<Message: ProtobufMessage>(
        _ field: ProtobufField,
        name: StaticString
    ) throws(ProtobufError) -> Message {
        var nested = try nestedReader(for: field, name: name, message: Message.protobufName)
        return try Message(reader: &nested)
    }

    /// Reads a singular embedded-message field into `existing`, merging in place when the
    /// field occurred before.
    package mutating func readMessage<Message: ProtobufMessage>(
        _ field: ProtobufField,
        name: StaticString,
        into existing: inout Message?
    ) throws(ProtobufError) {
        var nested = try nestedReader(for: field, name: name, message: Message.protobufName)
        if existing != nil {
            try existing!.merge(from: &nested)
        } else {
            existing = try Message(reader: &nested)
        }
    }
}

extension ProtobufWriter {
    /// Writes an embedded message field.
    package mutating func writeMessageField(_ fieldNumber: Int, _ message: some ProtobufMessage) {
        writeMessageField(fieldNumber, size: message.serializedSize) { message.write(to: &$0) }
    }
}

extension ProtobufSize {
    /// The size of an embedded message field.
    package static func messageField(_ fieldNumber: Int, _ message: some ProtobufMessage) -> Int {
        lengthDelimitedField(fieldNumber, length: message.serializedSize)
    }
}
