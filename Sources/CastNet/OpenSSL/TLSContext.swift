internal import COpenSSL
import CastCrypto

/// The settings from which each TLS session is made: an `SSL_CTX` and, for a server, the
/// certificate and key each session presents.
///
/// A server's `SSL_CTX` holds no identity: every server context with the same versions
/// shares one (``SharedServerContexts``) and each session gets its certificate and key in
/// ``TLSEngine``. An `SSL_CTX` costs about 13 KiB and a quarter of a millisecond to build,
/// so a fleet of 10,000 virtual devices, each with its own certificate on two listeners,
/// would otherwise spend 260 MiB and five seconds on contexts alone.
///
/// `@unchecked Sendable`: the context is fully configured in `init` and only read
/// afterwards (`SSL_new`), which OpenSSL allows from any thread.
final class TLSContext: @unchecked Sendable {
    /// A server's certificate chain (leaf first) and key, given to each session.
    struct Identity {
        let chain: [Certificate]
        let key: PrivateKey
    }

    private let handle: SSLContextHandle
    var pointer: OpaquePointer { handle.pointer }
    let isServer: Bool
    /// The certificate and key of a server's sessions.
    let identity: Identity?
    /// SNI name for client sessions.
    let serverName: String?
    /// Whether client sessions check the server name against the certificate.
    let verifiesHostName: Bool
    let handshakeTimeout: Duration

    /// A client context.
    init(client configuration: TLSClientConfiguration) throws(TLSError) {
        handle = SSLContextHandle(try Self.makeContext(method: TLS_client_method()))
        isServer = false
        identity = nil
        serverName = configuration.serverName
        handshakeTimeout = configuration.handshakeTimeout
        verifiesHostName = configuration.verification.verifiesPeer && configuration.serverName != nil
        try setVersions(minimum: configuration.minimumVersion, maximum: configuration.maximumVersion)
        switch configuration.verification.mode {
        case .none:
            SSL_CTX_set_verify(pointer, SSL_VERIFY_NONE, nil)
        case .roots(let roots):
            guard let store = SSL_CTX_get_cert_store(pointer) else {
                throw TLSError(code: .invalidConfiguration, reason: "no certificate store")
            }
            OpenSSLErrorQueue.clear()
            for root in roots {
                guard X509_STORE_add_cert(store, root.reference.pointer) == 1 else {
                    throw TLSError(
                        code: .invalidConfiguration,
                        reason: "trust roots: \(OpenSSLErrorQueue.drainText(or: "cannot add \(root)"))"
                    )
                }
            }
            SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER, nil)
        }
    }

    /// A server context presenting `configuration`'s certificate chain and key.
    init(server configuration: TLSServerConfiguration) throws(TLSError) {
        guard let leaf = configuration.certificateChain.first else {
            throw TLSError(code: .invalidConfiguration, reason: "certificate: the chain is empty")
        }
        OpenSSLErrorQueue.clear()
        // Checked here, once, so a listener with a mismatched pair fails to start rather than
        // failing every handshake.
        guard X509_check_private_key(leaf.reference.pointer, configuration.privateKey.reference.pointer) == 1 else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "private key does not match the certificate: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
        handle = try SharedServerContexts.handle(
            minimum: configuration.minimumVersion,
            maximum: configuration.maximumVersion
        )
        isServer = true
        identity = Identity(chain: configuration.certificateChain, key: configuration.privateKey)
        serverName = nil
        verifiesHostName = false
        handshakeTimeout = configuration.handshakeTimeout
    }

    /// A server context with no identity, for ``SharedServerContexts``.
    init(sharedServerMinimum minimum: TLSVersion, maximum: TLSVersion) throws(TLSError) {
        handle = SSLContextHandle(try Self.makeContext(method: TLS_server_method()))
        isServer = true
        identity = nil
        serverName = nil
        verifiesHostName = false
        handshakeTimeout = .zero
        try setVersions(minimum: minimum, maximum: maximum)
        // Cast peers do not resume sessions; tickets only cost a message per connection.
        _ = SSL_CTX_set_num_tickets(pointer, 0)
    }

    /// The `SSL_CTX` of a server context with `minimum` to `maximum`, for sharing.
    var sharedHandle: SSLContextHandle { handle }

    static func makeContext(method: OpaquePointer?) throws(TLSError) -> OpaquePointer {
        OpenSSLErrorQueue.clear()
        guard let context = SSL_CTX_new(method) else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "SSL_CTX_new: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
        // Memory BIOs grow as needed, so writes always complete; release idle buffers so a
        // thousand quiet connections stay small.
        _ = cast_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
        return context
    }

    private func setVersions(minimum: TLSVersion, maximum: TLSVersion) throws(TLSError) {
        guard minimum <= maximum, minimum >= .v1_2, maximum <= .v1_3 else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "versions: \(minimum) to \(maximum) is not a range within TLS 1.2 to TLS 1.3"
            )
        }
        _ = cast_SSL_CTX_set_min_proto_version(pointer, Int32(minimum.rawValue))
        _ = cast_SSL_CTX_set_max_proto_version(pointer, Int32(maximum.rawValue))
    }
}

/// Frees an `SSL_CTX` when the last context using it goes.
///
/// `@unchecked Sendable`: the pointer is set once and OpenSSL allows `SSL_new` on one
/// context from any thread.
final class SSLContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { SSL_CTX_free(pointer) }
}
