/// One signed certificate revocation list (`Crl`).
///
/// ``tbsCrl`` stays as raw bytes because ``signature`` covers exactly those bytes; decode
/// them with ``decodedTbsCrl()`` after the signature has been checked.
package struct Crl: Hashable, Sendable {
    /// Field 1, `tbs_crl`: a serialized ``TbsCrl``, the signed content.
    package var tbsCrl: [UInt8]?
    /// Field 2, `signer_cert`: the DER certificate whose key signed ``tbsCrl``.
    package var signerCert: [UInt8]?
    /// Field 3, `signature`: the signature over ``tbsCrl``.
    package var signature: [UInt8]?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    package var unknownFields: [UInt8] = []

    /// Creates a CRL.
    package init(tbsCrl: [UInt8]? = nil, signerCert: [UInt8]? = nil, signature: [UInt8]? = nil) {
        self.tbsCrl = tbsCrl
        self.signerCert = signerCert
        self.signature = signature
    }

    /// Decodes a serialized `Crl`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `Crl`.
    package init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the CRL.
    package func serializedBytes() -> [UInt8] { encoded() }

    /// Decodes ``tbsCrl``; an absent field decodes as an empty ``TbsCrl``, as protobuf
    /// treats empty input.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `TbsCrl`.
    package func decodedTbsCrl() throws(ProtobufError) -> TbsCrl {
        try TbsCrl(serializedBytes: tbsCrl ?? [])
    }
}

extension Crl: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "Crl" }

    package static var empty: Crl { Crl() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            tbsCrl = try reader.readBytes(field, name: "tbs_crl")
        case 2:
            signerCert = try reader.readBytes(field, name: "signer_cert")
        case 3:
            signature = try reader.readBytes(field, name: "signature")
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        if let tbsCrl {
            size += ProtobufSize.lengthDelimitedField(1, length: tbsCrl.count)
        }
        if let signerCert {
            size += ProtobufSize.lengthDelimitedField(2, length: signerCert.count)
        }
        if let signature {
            size += ProtobufSize.lengthDelimitedField(3, length: signature.count)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        if let tbsCrl {
            writer.writeBytesField(1, tbsCrl)
        }
        if let signerCert {
            writer.writeBytesField(2, signerCert)
        }
        if let signature {
            writer.writeBytesField(3, signature)
        }
        writer.writeRaw(unknownFields)
    }
}
