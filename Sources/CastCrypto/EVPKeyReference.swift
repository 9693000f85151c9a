internal import COpenSSL

/// Owns one `EVP_PKEY`.
///
/// `@unchecked Sendable` is safe: the key is never mutated after creation, and OpenSSL 3 allows
/// concurrent signing and verification with one `EVP_PKEY` (each operation makes its own context).
package final class EVPKeyReference: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The DER SubjectPublicKeyInfo of the key's public half.
    func subjectPublicKeyInfoDER() -> [UInt8]? {
        OpenSSLHelpers.encodeDER { i2d_PUBKEY(pointer, $0) }
    }
}
