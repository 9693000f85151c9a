/// The signed content of a Cast CRL (`TbsCrl`).
package struct TbsCrl: Hashable, Sendable {
    /// Field 1, `version`.
    package var version: UInt64?
    /// Field 2, `not_before_seconds`: start of validity, seconds since 1970-01-01 UTC.
    package var notBeforeSeconds: UInt64?
    /// Field 3, `not_after_seconds`: end of validity, seconds since 1970-01-01 UTC.
    package var notAfterSeconds: UInt64?
    /// Field 4, `revoked_public_key_hashes` (repeated): SHA-256 hashes of revoked
    /// certificates' SubjectPublicKeyInfo.
    package var revokedPublicKeyHashes: [[UInt8]]
    /// Field 5, `revoked_serial_number_ranges` (repeated).
    package var revokedSerialNumberRanges: [SerialNumberRange]
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    package var unknownFields: [UInt8] = []

    /// Creates a CRL content.
    package init(
        version: UInt64? = nil,
        notBeforeSeconds: UInt64? = nil,
        notAfterSeconds: UInt64? = nil,
        revokedPublicKeyHashes: [[UInt8]] = [],
        revokedSerialNumberRanges: [SerialNumberRange] = []
    ) {
        self.version = version
        self.notBeforeSeconds = notBeforeSeconds
        self.notAfterSeconds = notAfterSeconds
        self.revokedPublicKeyHashes = revokedPublicKeyHashes
        self.revokedSerialNumberRanges = revokedSerialNumberRanges
    }

    /// Decodes a serialized `TbsCrl`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `TbsCrl`.
    package init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the CRL content.
    package func serializedBytes() -> [UInt8] { encoded() }
}

extension TbsCrl: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "TbsCrl" }

    package static var empty: TbsCrl { TbsCrl() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            version = try reader.readUInt64(field, name: "version")
        case 2:
            notBeforeSeconds = try reader.readUInt64(field, name: "not_before_seconds")
        case 3:
            notAfterSeconds = try reader.readUInt64(field, name: "not_after_seconds")
        case 4:
            revokedPublicKeyHashes.append(try reader.readBytes(field, name: "revoked_public_key_hashes"))
        case 5:
            revokedSerialNumberRanges.append(try reader.readMessage(field, name: "revoked_serial_number_ranges"))
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        if let version {
            size += ProtobufSize.varintField(1, version)
        }
        if let notBeforeSeconds {
            size += ProtobufSize.varintField(2, notBeforeSeconds)
        }
        if let notAfterSeconds {
            size += ProtobufSize.varintField(3, notAfterSeconds)
        }
        for hash in revokedPublicKeyHashes {
            size += ProtobufSize.lengthDelimitedField(4, length: hash.count)
        }
        for range in revokedSerialNumberRanges {
            size += ProtobufSize.messageField(5, range)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        if let version {
            writer.writeVarintField(1, version)
        }
        if let notBeforeSeconds {
            writer.writeVarintField(2, notBeforeSeconds)
        }
        if let notAfterSeconds {
            writer.writeVarintField(3, notAfterSeconds)
        }
        for hash in revokedPublicKeyHashes {
            writer.writeBytesField(4, hash)
        }
        for range in revokedSerialNumberRanges {
            writer.writeMessageField(5, range)
        }
        writer.writeRaw(unknownFields)
    }
}
