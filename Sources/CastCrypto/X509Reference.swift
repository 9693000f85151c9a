internal import COpenSSL

/// Owns one `X509`.
///
/// `@unchecked Sendable` is safe: the certificate is never mutated after creation. OpenSSL fills
/// its cached extension data lazily, but does so under the object's own lock, and every reader
/// here goes through OpenSSL's accessors.
package final class X509Reference: @unchecked Sendable {
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    package init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }
}
