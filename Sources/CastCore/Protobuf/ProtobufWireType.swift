/// The wire types of the protobuf encoding (the low three bits of a tag).
package enum ProtobufWireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// One field tag read from the wire.
package struct ProtobufField: Sendable {
    /// The field number, 1...536870911.
    package let number: Int
    /// The wire type.
    package let wireType: ProtobufWireType
    /// The index of the tag's first byte in the reader's buffer.
    package let tagIndex: Int
}
