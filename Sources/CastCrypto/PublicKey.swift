internal import COpenSSL

/// A public key, typically an RSA key taken from a certificate.
public struct PublicKey: Hashable, Sendable {
    let reference: EVPKeyReference
    /// The DER SubjectPublicKeyInfo of the key.
    public let derBytes: [UInt8]

    init(reference: EVPKeyReference, derBytes: [UInt8]) {
        self.reference = reference
        self.derBytes = derBytes
    }

    /// Reads a DER-encoded SubjectPublicKeyInfo.
    /// - Throws: ``OpenSSLError/Code/malformedKey`` when the bytes are not a public key.
    public init(derEncoded bytes: [UInt8]) throws(OpenSSLError) {
        OpenSSLErrorQueue.clear()
        let key = bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else {
            throw .drainingQueue(.malformedKey, context: "SubjectPublicKeyInfo of \(bytes.count) bytes")
        }
        let reference = EVPKeyReference(taking: key)
        guard let der = reference.subjectPublicKeyInfoDER() else {
            throw .drainingQueue(.encodingFailed, context: "re-encoding a public key")
        }
        self.init(reference: reference, derBytes: der)
    }

    /// The size of the key in bits (the modulus size for RSA).
    public var bitSize: Int { Int(EVP_PKEY_get_bits(reference.pointer)) }

    /// Whether this is an RSA key.
    public var isRSA: Bool { EVP_PKEY_get_base_id(reference.pointer) == EVP_PKEY_RSA }

    /// The SHA-256 digest of ``derBytes`` (the "SPKI hash" Cast revocation lists name).
    public var sha256: [UInt8] { Digest.sha256(derBytes) }

    /// Checks a signature over `data`.
    ///
    /// For RSA keys the scheme is RSASSA-PKCS1-v1_5; other key types use OpenSSL's default
    /// scheme for them (ECDSA for EC keys).
    /// - Parameters:
    ///   - signature: the signature bytes.
    ///   - data: the signed data (hashed here with `digest`).
    ///   - digest: the hash the signer used.
    /// - Returns: `true` when the signature is valid for this key; `false` for any bad, empty or
    ///   malformed signature.
    public func verify(signature: [UInt8], data: [UInt8], digest: DigestAlgorithm) -> Bool {
        guard !signature.isEmpty, let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            OpenSSLErrorQueue.clear()
        }
        guard EVP_DigestVerifyInit(context, nil, digest.evpMD, nil, reference.pointer) == 1 else { return false }
        let status = signature.withUnsafeBufferPointer { signatureBuffer in
            data.withUnsafeBufferPointer { dataBuffer in
                EVP_DigestVerify(
                    context,
                    signatureBuffer.baseAddress,
                    signatureBuffer.count,
                    dataBuffer.baseAddress,
                    dataBuffer.count
                )
            }
        }
        return status == 1
    }

    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.derBytes == rhs.derBytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}
