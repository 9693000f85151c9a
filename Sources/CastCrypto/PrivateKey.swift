internal import COpenSSL

/// A private key (RSA in practice) that signs with RSASSA-PKCS1-v1_5.
public struct PrivateKey: Sendable {
    package let reference: EVPKeyReference

    init(reference: EVPKeyReference) {
        self.reference = reference
    }

    /// Reads an unencrypted PEM private key: PKCS#1 (`RSA PRIVATE KEY`) or PKCS#8 (`PRIVATE KEY`).
    /// - Throws: ``OpenSSLError/Code/malformedKey`` when the text holds no readable key.
    public init(pemEncoded text: String) throws(OpenSSLError) {
        OpenSSLErrorQueue.clear()
        let key = try OpenSSLHelpers.withReadBIO(Array(text.utf8)) { bio throws(OpenSSLError) -> OpaquePointer in
            // A nil password callback plus an empty user password means encrypted keys fail
            // instead of prompting on the terminal.
            guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
                throw .drainingQueue(.malformedKey, context: "PEM private key (\(text.utf8.count) bytes of text)")
            }
            return key
        }
        self.init(reference: EVPKeyReference(taking: key))
    }

    /// Generates a new RSA key.
    /// - Parameter bits: the modulus size; 2048 unless given.
    /// - Throws: ``OpenSSLError/Code/keyGenerationFailed``.
    public static func generateRSA(bits: Int = 2048) throws(OpenSSLError) -> PrivateKey {
        precondition(bits >= 1024 && bits <= 16384, "RSA key size out of range")
        OpenSSLErrorQueue.clear()
        guard let key = cast_EVP_RSA_gen(UInt32(bits)) else {
            throw .drainingQueue(.keyGenerationFailed, context: "RSA-\(bits)")
        }
        return PrivateKey(reference: EVPKeyReference(taking: key))
    }

    /// The key as unencrypted PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public func pemString() throws(OpenSSLError) -> String {
        let bytes = try OpenSSLHelpers.collectingBIO(context: "writing a PEM private key") { bio in
            PEM_write_bio_PrivateKey(bio, reference.pointer, nil, nil, 0, nil, nil) == 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The public half of the key.
    public var publicKey: PublicKey {
        get throws(OpenSSLError) {
            guard let der = reference.subjectPublicKeyInfoDER() else {
                throw .drainingQueue(.encodingFailed, context: "encoding the public half of a private key")
            }
            return try PublicKey(derEncoded: der)
        }
    }

    /// The size of the key in bits.
    public var bitSize: Int { Int(EVP_PKEY_get_bits(reference.pointer)) }

    /// Signs `data` with RSASSA-PKCS1-v1_5 (for RSA keys), which is deterministic: the same key,
    /// data and digest always give the same signature.
    /// - Parameters:
    ///   - data: the data to sign (hashed here with `digest`).
    ///   - digest: the hash to use.
    /// - Returns: the signature, as long as the modulus.
    /// - Throws: ``OpenSSLError/Code/signingFailed``.
    public func sign(_ data: [UInt8], digest: DigestAlgorithm) throws(OpenSSLError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else {
            throw .drainingQueue(.signingFailed, context: "allocating a digest context")
        }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, digest.evpMD, nil, reference.pointer) == 1 else {
            throw .drainingQueue(.signingFailed, context: "initialising a \(digest) signature")
        }
        var length = 0
        let sizeStatus = data.withUnsafeBufferPointer { input in
            EVP_DigestSign(context, nil, &length, input.baseAddress, input.count)
        }
        guard sizeStatus == 1, length > 0 else {
            throw .drainingQueue(.signingFailed, context: "sizing a \(digest) signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        let status = data.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
            }
        }
        guard status == 1 else {
            throw .drainingQueue(.signingFailed, context: "signing \(data.count) bytes with \(digest)")
        }
        return Array(signature.prefix(length))
    }
}
