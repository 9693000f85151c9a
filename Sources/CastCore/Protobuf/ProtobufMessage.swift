/// A message type that the protobuf codec can decode and encode.
///
/// Each message writes its fields in field-number order followed by the raw bytes of the
/// fields it did not know, which makes re-encoding a decoded message byte-exact for any
/// input written in canonical order (as every protobuf library writes).
package protocol ProtobufMessage {
    /// The message's name in the `.proto` file, used in errors.
    static var protobufName: StaticString { get }

    /// Decodes the message from `reader`, starting from `previous` when the same embedded
    /// message occurs more than once (protobuf merges the occurrences).
    init(reader: inout ProtobufReader, merging previous: Self?) throws(ProtobufError)

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
            try Self(reader: &reader, merging: nil)
        }
    }

    /// Encodes the message into a new array.
    package func encoded() -> [UInt8] {
        let size = serializedSize
        return ProtobufWriter.encode(size: size) { write(to: &$0) }
    }
}

extension ProtobufReader {
    /// Reads an embedded message field, merging it into `previous` when the field repeats.
    package mutating func readMessage<Message: ProtobufMessage>(
        _ field: ProtobufField,
        name: StaticString,
        merging previous: Message? = nil
    ) throws(ProtobufError) -> Message {
        var nested = try nestedReader(for: field, name: name, message: Message.protobufName)
        return try Message(reader: &nested, merging: previous)
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
