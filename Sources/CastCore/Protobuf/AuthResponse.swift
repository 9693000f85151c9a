/// The receiver's answer to an ``AuthChallenge`` (`AuthResponse`).
///
/// Optional fields stay `nil` when absent, so a decoded response re-encodes to the same
/// bytes; the `effective…` properties apply the `.proto` defaults.
public struct AuthResponse: Hashable, Sendable {
    /// Field 1, `signature` (required): the signature over `sender_nonce` followed by the
    /// DER of the receiver's TLS certificate.
    public var signature: [UInt8]
    /// Field 2, `client_auth_certificate` (required): the DER device certificate.
    public var clientAuthCertificate: [UInt8]
    /// Field 3, `intermediate_certificate` (repeated): the DER certificates between the
    /// device certificate and the root, in order.
    public var intermediateCertificates: [[UInt8]]
    /// Field 4, `signature_algorithm`.
    public var signatureAlgorithm: SignatureAlgorithm?
    /// Field 5, `sender_nonce`: the challenge's nonce, echoed.
    public var senderNonce: [UInt8]?
    /// Field 6, `hash_algorithm`.
    public var hashAlgorithm: HashAlgorithm?
    /// Field 7, `crl`: a serialized ``CrlBundle``.
    public var crl: [UInt8]?
    /// Raw bytes of fields this type does not know, re-emitted after the known fields.
    public var unknownFields: [UInt8] = []

    /// The signature algorithm, `RSASSA_PKCS1v15` when absent.
    public var effectiveSignatureAlgorithm: SignatureAlgorithm { signatureAlgorithm ?? .rsassaPKCS1v15 }
    /// The hash algorithm, `SHA1` when absent.
    public var effectiveHashAlgorithm: HashAlgorithm { hashAlgorithm ?? .sha1 }

    /// Creates a response.
    public init(
        signature: [UInt8],
        clientAuthCertificate: [UInt8],
        intermediateCertificates: [[UInt8]] = [],
        signatureAlgorithm: SignatureAlgorithm? = nil,
        senderNonce: [UInt8]? = nil,
        hashAlgorithm: HashAlgorithm? = nil,
        crl: [UInt8]? = nil
    ) {
        self.signature = signature
        self.clientAuthCertificate = clientAuthCertificate
        self.intermediateCertificates = intermediateCertificates
        self.signatureAlgorithm = signatureAlgorithm
        self.senderNonce = senderNonce
        self.hashAlgorithm = hashAlgorithm
        self.crl = crl
    }

    /// Decodes a serialized `AuthResponse`.
    /// - Throws: ``ProtobufError`` when the bytes are not a valid `AuthResponse`, including
    ///   when `signature` or `client_auth_certificate` is missing.
    public init(serializedBytes bytes: some Collection<UInt8>) throws(ProtobufError) {
        try self.init(decoding: bytes)
    }

    /// Returns the protobuf encoding of the response.
    public func serializedBytes() -> [UInt8] { encoded() }

    /// Decodes ``crl`` as a ``CrlBundle``, or returns `nil` when the response carries none.
    /// - Throws: ``ProtobufError`` when the CRL bytes are not a valid `CrlBundle`.
    package func decodedCrlBundle() throws(ProtobufError) -> CrlBundle? {
        guard let crl else { return nil }
        return try CrlBundle(serializedBytes: crl)
    }
}

extension AuthResponse: ProtobufFieldDecodable {
    package static var protobufName: StaticString { "AuthResponse" }

    package static var empty: AuthResponse { AuthResponse(signature: [], clientAuthCertificate: []) }
    package static var requiredFields: KeyValuePairs<Int, StaticString> {
        [1: "signature", 2: "client_auth_certificate"]
    }

    package mutating func readField(
        _ field: ProtobufField,
        from reader: inout ProtobufReader
    ) throws(ProtobufError) -> Bool {
        switch field.number {
        case 1:
            signature = try reader.readBytes(field, name: "signature")
        case 2:
            clientAuthCertificate = try reader.readBytes(field, name: "client_auth_certificate")
        case 3:
            intermediateCertificates.append(try reader.readBytes(field, name: "intermediate_certificate"))
        case 4:
            signatureAlgorithm = SignatureAlgorithm(
                rawValue: try reader.readInt32(field, name: "signature_algorithm")
            )
        case 5:
            senderNonce = try reader.readBytes(field, name: "sender_nonce")
        case 6:
            hashAlgorithm = HashAlgorithm(rawValue: try reader.readInt32(field, name: "hash_algorithm"))
        case 7:
            crl = try reader.readBytes(field, name: "crl")
        default:
            return false
        }
        return true
    }

    package var serializedSize: Int {
        var size = unknownFields.count
        size += ProtobufSize.lengthDelimitedField(1, length: signature.count)
        size += ProtobufSize.lengthDelimitedField(2, length: clientAuthCertificate.count)
        for certificate in intermediateCertificates {
            size += ProtobufSize.lengthDelimitedField(3, length: certificate.count)
        }
        if let signatureAlgorithm {
            size += ProtobufSize.int32Field(4, signatureAlgorithm.rawValue)
        }
        if let senderNonce {
            size += ProtobufSize.lengthDelimitedField(5, length: senderNonce.count)
        }
        if let hashAlgorithm {
            size += ProtobufSize.int32Field(6, hashAlgorithm.rawValue)
        }
        if let crl {
            size += ProtobufSize.lengthDelimitedField(7, length: crl.count)
        }
        return size
    }

    package func write(to writer: inout ProtobufWriter) {
        writer.writeBytesField(1, signature)
        writer.writeBytesField(2, clientAuthCertificate)
        for certificate in intermediateCertificates {
            writer.writeBytesField(3, certificate)
        }
        if let signatureAlgorithm {
            writer.writeInt32Field(4, signatureAlgorithm.rawValue)
        }
        if let senderNonce {
            writer.writeBytesField(5, senderNonce)
        }
        if let hashAlgorithm {
            writer.writeInt32Field(6, hashAlgorithm.rawValue)
        }
        if let crl {
            writer.writeBytesField(7, crl)
        }
        writer.writeRaw(unknownFields)
    }
}
