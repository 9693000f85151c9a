/// A range of revoked certificate serial numbers under one issuer (`SerialNumberRange`).
package struct SerialNumberRange: Hashable, Sendable {
    /// Field 1, `issuer_public_key_hash`: SHA-256 of the issuer's SubjectPublicKeyInfo.
    package var issuerPublicKeyHash: [UInt8]?
    /// Field 2, `first_serial_number`: the first revoked serial number.
    package var firstSerialNumber: UInt64?
    /// Field 3, `last_serial_number`: the last revoked serial number, inclusive.
    package var lastSerialNumber: UInt64?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    package var unknownFields: [UInt8] = []

    /// Creates a range.
    package init(issuerPublicKeyHash: [UInt8]? = nil, firstSerialNumber: UInt64? = nil, lastSerialNumber: UInt64? = nil)
    {
        self.issuerPublicKeyHash = issuerPublicKeyHash
        self.firstSerialNumber = firstSerialNumber
        self.lastSerialNumber = lastSerialNumber
    }

    /// Decodes a serialized `SerialNumberRange`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `SerialNumberRange`.
    package init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the range.
    package func serializedBytes() -> [UInt8] { encoded() }
}

extension SerialNumberRange: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "SerialNumberRange" }

    package static var empty: SerialNumberRange { SerialNumberRange() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            issuerPublicKeyHash = try reader.readBytes(field, name: "issuer_public_key_hash")
        case 2:
            firstSerialNumber = try reader.readUInt64(field, name: "first_serial_number")
        case 3:
            lastSerialNumber = try reader.readUInt64(field, name: "last_serial_number")
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        if let issuerPublicKeyHash {
            size += ProtobufSize.lengthDelimitedField(1, length: issuerPublicKeyHash.count)
        }
        if let firstSerialNumber {
            size += ProtobufSize.varintField(2, firstSerialNumber)
        }
        if let lastSerialNumber {
            size += ProtobufSize.varintField(3, lastSerialNumber)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        if let issuerPublicKeyHash {
            writer.writeBytesField(1, issuerPublicKeyHash)
        }
        if let firstSerialNumber {
            writer.writeVarintField(2, firstSerialNumber)
        }
        if let lastSerialNumber {
            writer.writeVarintField(3, lastSerialNumber)
        }
        writer.writeRaw(unknownFields)
    }
}
