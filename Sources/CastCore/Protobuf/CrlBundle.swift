/// A bundle of Cast certificate revocation lists (`CrlBundle`), as carried in
/// ``AuthResponse/crl``.
package struct CrlBundle: Hashable, Sendable {
    /// Field 1, `crls` (repeated).
    package var crls: [Crl]
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    package var unknownFields: [UInt8] = []

    /// Creates a bundle.
    package init(crls: [Crl] = []) {
        self.crls = crls
    }

    /// Decodes a serialized `CrlBundle`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `CrlBundle`.
    package init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the bundle.
    package func serializedBytes() -> [UInt8] { encoded() }
}

extension CrlBundle: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "CrlBundle" }

    package static var empty: CrlBundle { CrlBundle() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            crls.append(try reader.readMessage(field, name: "crls"))
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        for crl in crls {
            size += ProtobufSize.messageField(1, crl)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        for crl in crls {
            writer.writeMessageField(1, crl)
        }
        writer.writeRaw(unknownFields)
    }
}
