internal import COpenSSL
import CastCrypto

/// One TLS session driven entirely through BIOs in memory: ciphertext goes in with
/// ``receive(ciphertext:)`` and comes out with ``takeCiphertext()``; no socket is involved,
/// so a client and a server engine can talk back to back in a test.
final class TLSEngine {
    /// The progress of the handshake.
    enum HandshakeStatus: Equatable {
        case complete
        case needsInput
        case failed(TLSError)
    }

    /// The outcome of reading plaintext.
    enum ReadResult: Equatable {
        case bytes(Int)
        case needsInput
        /// The peer sent close_notify.
        case closed
        case failed(TLSError)
    }

    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    let context: TLSContext
    private(set) var isHandshakeComplete = false
    private var sentShutdown = false

    /// Creates a session for `context`'s role.
    init(context: TLSContext) throws(TLSError) {
        self.context = context
        OpenSSLErrorQueue.clear()
        guard let ssl = SSL_new(context.pointer) else {
            throw TLSError(code: .invalidConfiguration, reason: "SSL_new: \(OpenSSLErrorQueue.drainText(or: "failed"))")
        }
        // Queues that free their storage whenever they empty; an empty read queue means
        // "wait for more", not end of stream.
        guard let readBIO = ReleasingBIO.make() else {
            SSL_free(ssl)
            throw TLSError(code: .invalidConfiguration, reason: "BIO_new failed")
        }
        guard let writeBIO = ReleasingBIO.make() else {
            BIO_free(readBIO)
            SSL_free(ssl)
            throw TLSError(code: .invalidConfiguration, reason: "BIO_new failed")
        }
        SSL_set_bio(ssl, readBIO, writeBIO)
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        if context.isServer {
            if let identity = context.identity {
                do {
                    try Self.use(identity, in: ssl)
                } catch {
                    SSL_free(ssl)
                    throw error
                }
            }
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let name = context.serverName {
                _ = cast_SSL_set_tlsext_host_name(ssl, name)
                if context.verifiesHostName {
                    _ = SSL_set1_host(ssl, name)
                }
            }
        }
    }

    deinit { SSL_free(ssl) }

    /// Gives a server session its certificate chain and key (the shared `SSL_CTX` has none).
    private static func use(_ identity: TLSContext.Identity, in ssl: OpaquePointer) throws(TLSError) {
        guard let leaf = identity.chain.first, SSL_use_certificate(ssl, leaf.reference.pointer) == 1 else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "certificate: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
        for intermediate in identity.chain.dropFirst() {
            guard cast_SSL_add1_chain_cert(ssl, intermediate.reference.pointer) == 1 else {
                throw TLSError(
                    code: .invalidConfiguration,
                    reason: "chain: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
                )
            }
        }
        guard SSL_use_PrivateKey(ssl, identity.key.reference.pointer) == 1 else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "private key: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
    }

    /// Hands bytes received from the peer to the session.
    func receive(ciphertext: UnsafeRawBufferPointer) {
        guard !ciphertext.isEmpty else { return }
        _ = BIO_write(readBIO, ciphertext.baseAddress, Int32(ciphertext.count))
    }

    /// Advances the handshake with the bytes received so far.
    func handshake() -> HandshakeStatus {
        if isHandshakeComplete { return .complete }
        OpenSSLErrorQueue.clear()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isHandshakeComplete = true
            return .complete
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needsInput
        default:
            return .failed(handshakeError())
        }
    }

    private func handshakeError() -> TLSError {
        let queue = OpenSSLErrorQueue.drainText(or: "handshake failed")
        let verify = SSL_get_verify_result(ssl)
        if SSL_CTX_get_verify_mode(context.pointer) != SSL_VERIFY_NONE {
            if verify != X509_V_OK {
                let text = String(cString: X509_verify_cert_error_string(verify))
                return TLSError(code: .certificateRejected, reason: "\(text) (verify result \(verify))")
            }
        }
        return TLSError(code: .handshakeFailed, reason: queue)
    }

    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        OpenSSLErrorQueue.clear()
        var count = 0
        let result = SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count)
        if result == 1 { return .bytes(count) }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .needsInput
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        default:
            return .failed(TLSError(code: .protocolError, reason: OpenSSLErrorQueue.drainText(or: "SSL_read failed")))
        }
    }

    /// Encrypts `plaintext`; the records wait in ``takeCiphertext()``.
    func write(_ plaintext: UnsafeRawBufferPointer) -> TLSError? {
        var offset = 0
        while offset < plaintext.count {
            OpenSSLErrorQueue.clear()
            var written = 0
            let result = SSL_write_ex(ssl, plaintext.baseAddress! + offset, plaintext.count - offset, &written)
            guard result == 1 else {
                return TLSError(code: .protocolError, reason: OpenSSLErrorQueue.drainText(or: "SSL_write failed"))
            }
            offset += written
        }
        return nil
    }

    /// Queues a close_notify alert.
    func shutdown() {
        guard !sentShutdown else { return }
        sentShutdown = true
        OpenSSLErrorQueue.clear()
        _ = SSL_shutdown(ssl)
        OpenSSLErrorQueue.clear()
    }

    /// The bytes of storage the ciphertext queues hold: zero once everything received was read
    /// and everything encrypted was taken.
    var queueStorageBytes: Int {
        ReleasingBIO.storageCapacity(of: readBIO) + ReleasingBIO.storageCapacity(of: writeBIO)
    }

    /// The number of encrypted bytes waiting to be sent.
    var pendingCiphertextCount: Int { Int(cast_BIO_pending(writeBIO)) }

    /// Removes and returns the encrypted bytes waiting to be sent, or `nil` when none.
    func takeCiphertext() -> [UInt8]? {
        let count = Int(cast_BIO_pending(writeBIO))
        guard count > 0 else { return nil }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let read = BIO_read(writeBIO, buffer.baseAddress, Int32(count))
            initialized = max(0, Int(read))
        }
    }

    /// The peer's certificate, once the handshake is done.
    var peerCertificate: Certificate? {
        peerCertificateReference.flatMap(Certificate.init(reference:))
    }

    /// The peer's certificate as OpenSSL holds it (one more reference to it), once the
    /// handshake is done.
    var peerCertificateReference: X509Reference? {
        SSL_get1_peer_certificate(ssl).map(X509Reference.init(taking:))
    }

    /// The negotiated protocol, such as `"TLSv1.3"`.
    var protocolVersion: String {
        String(cString: SSL_get_version(ssl))
    }
}
