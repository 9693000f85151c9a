/// The challenge a sender puts in a ``DeviceAuthMessage`` (`AuthChallenge`).
///
/// Optional fields stay `nil` when absent, so a decoded challenge re-encodes to the same
/// bytes; the `effective…` properties apply the `.proto` defaults.
public struct AuthChallenge: Hashable, Sendable {
    /// Field 1, `signature_algorithm`.
    public var signatureAlgorithm: SignatureAlgorithm?
    /// Field 2, `sender_nonce`: random bytes the receiver must sign and echo.
    public var senderNonce: [UInt8]?
    /// Field 3, `hash_algorithm`.
    public var hashAlgorithm: HashAlgorithm?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    public var unknownFields: [UInt8] = []

    /// The signature algorithm, `RSASSA_PKCS1v15` when absent.
    public var effectiveSignatureAlgorithm: SignatureAlgorithm { signatureAlgorithm ?? .rsassaPKCS1v15 }
    /// The hash algorithm, `SHA1` when absent.
    public var effectiveHashAlgorithm: HashAlgorithm { hashAlgorithm ?? .sha1 }

    /// Creates a challenge.
    public init(
        signatureAlgorithm: SignatureAlgorithm? = nil,
        senderNonce: [UInt8]? = nil,
        hashAlgorithm: HashAlgorithm? = nil
    ) {
        self.signatureAlgorithm = signatureAlgorithm
        self.senderNonce = senderNonce
        self.hashAlgorithm = hashAlgorithm
    }

    /// Decodes a serialized `AuthChallenge`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `AuthChallenge`.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the challenge.
    public func serializedBytes() -> [UInt8] { encoded() }
}

extension AuthChallenge: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "AuthChallenge" }

    package static var empty: AuthChallenge { AuthChallenge() }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            signatureAlgorithm = SignatureAlgorithm(
                rawValue: try reader.readInt32(field, name: "signature_algorithm")
            )
        case 2:
            senderNonce = try reader.readBytes(field, name: "sender_nonce")
        case 3:
            hashAlgorithm = HashAlgorithm(rawValue: try reader.readInt32(field, name: "hash_algorithm"))
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        if let signatureAlgorithm {
            size += ProtobufSize.int32Field(1, signatureAlgorithm.rawValue)
        }
        if let senderNonce {
            size += ProtobufSize.lengthDelimitedField(2, length: senderNonce.count)
        }
        if let hashAlgorithm {
            size += ProtobufSize.int32Field(3, hashAlgorithm.rawValue)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        if let signatureAlgorithm {
            writer.writeInt32Field(1, signatureAlgorithm.rawValue)
        }
        if let senderNonce {
            writer.writeBytesField(2, senderNonce)
        }
        if let hashAlgorithm {
            writer.writeInt32Field(3, hashAlgorithm.rawValue)
        }
        writer.writeRaw(unknownFields)
    }
}
