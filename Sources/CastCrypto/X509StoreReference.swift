internal import COpenSSL

/// Owns one `X509_STORE` holding trust anchors.
///
/// `@unchecked Sendable` is safe: anchors are added only in the initializer; afterwards the store
/// is only read, and OpenSSL guards its lookups with the store's own lock.
final class X509StoreReference: @unchecked Sendable {
    let pointer: OpaquePointer

    init(anchors: [Certificate]) throws(OpenSSLError) {
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else {
            throw .drainingQueue(.verificationSetupFailed, context: "allocating a certificate store")
        }
        pointer = store
        for (index, anchor) in anchors.enumerated() {
            // Adding a certificate already present succeeds in OpenSSL 3.
            guard X509_STORE_add_cert(store, anchor.reference.pointer) == 1 else {
                throw .drainingQueue(.verificationSetupFailed, context: "adding trust anchor \(index) (\(anchor))")
            }
        }
    }

    deinit {
        X509_STORE_free(pointer)
    }
}
