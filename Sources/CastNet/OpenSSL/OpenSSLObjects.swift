internal import COpenSSL

/// Owns a `BIO`.
final class OpenSSLBIO {
    let pointer: OpaquePointer

    /// A read-only memory BIO over a copy of `bytes`.
    init(copying bytes: [UInt8]) throws(TLSError) {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw TLSError(code: .invalidConfiguration, reason: "BIO_new failed")
        }
        pointer = bio
        let written = bytes.withUnsafeBytes { BIO_write(bio, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.count || bytes.isEmpty else {
            throw TLSError(code: .invalidConfiguration, reason: "BIO_write failed")
        }
    }

    deinit { BIO_free(pointer) }
}

/// Owns an `X509` certificate.
final class OpenSSLCertificate {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// Every certificate in a PEM text, in order.
    /// - Throws: ``TLSError`` when the text holds no certificate.
    static func parseAll(pem: String, what: String) throws(TLSError) -> [OpenSSLCertificate] {
        let bio = try OpenSSLBIO(copying: Array(pem.utf8))
        var result: [OpenSSLCertificate] = []
        OpenSSLErrorQueue.clear()
        while let certificate = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            result.append(OpenSSLCertificate(taking: certificate))
        }
        // Reading stops with a "no start line" error at the end of the text.
        OpenSSLErrorQueue.clear()
        guard !result.isEmpty else {
            throw TLSError(code: .invalidConfiguration, reason: "\(what): no PEM certificate found")
        }
        return result
    }

    /// The certificate in DER.
    var der: [UInt8] {
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            _ = i2d_X509(pointer, &cursor)
        }
        return bytes
    }
}

/// Owns an `EVP_PKEY` private key.
final class OpenSSLPrivateKey {
    let pointer: OpaquePointer

    init(pem: String) throws(TLSError) {
        let bio = try OpenSSLBIO(copying: Array(pem.utf8))
        OpenSSLErrorQueue.clear()
        guard let key = PEM_read_bio_PrivateKey(bio.pointer, nil, nil, nil) else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "private key: not a PEM private key (\(OpenSSLErrorQueue.drain()))"
            )
        }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }
}
