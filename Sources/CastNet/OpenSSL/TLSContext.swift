internal import COpenSSL
import CastCrypto

/// Owns an `SSL_CTX`: the shared settings from which each TLS session is made.
///
/// `@unchecked Sendable`: the context is fully configured in `init` and only read
/// afterwards (`SSL_new`), which OpenSSL allows from any thread.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    let isServer: Bool
    /// SNI name for client sessions.
    let serverName: String?
    /// Whether client sessions check the server name against the certificate.
    let verifiesHostName: Bool
    let handshakeTimeout: Duration

    /// A client context.
    init(client configuration: TLSClientConfiguration) throws(TLSError) {
        pointer = try Self.makeContext(method: TLS_client_method())
        isServer = false
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
        pointer = try Self.makeContext(method: TLS_server_method())
        isServer = true
        serverName = nil
        verifiesHostName = false
        handshakeTimeout = configuration.handshakeTimeout
        try setVersions(minimum: configuration.minimumVersion, maximum: configuration.maximumVersion)
        try useIdentity(chain: configuration.certificateChain, key: configuration.privateKey)
        // Cast peers do not resume sessions; tickets only cost a message per connection.
        _ = SSL_CTX_set_num_tickets(pointer, 0)
    }

    deinit { SSL_CTX_free(pointer) }

    func useIdentity(chain: [Certificate], key: PrivateKey) throws(TLSError) {
        OpenSSLErrorQueue.clear()
        guard let leaf = chain.first, SSL_CTX_use_certificate(pointer, leaf.reference.pointer) == 1 else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "certificate: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
        for intermediate in chain.dropFirst() {
            guard cast_SSL_CTX_add1_chain_cert(pointer, intermediate.reference.pointer) == 1 else {
                throw TLSError(
                    code: .invalidConfiguration,
                    reason: "chain: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
                )
            }
        }
        guard SSL_CTX_use_PrivateKey(pointer, key.reference.pointer) == 1, SSL_CTX_check_private_key(pointer) == 1
        else {
            throw TLSError(
                code: .invalidConfiguration,
                reason: "private key does not match the certificate: \(OpenSSLErrorQueue.drainText(or: "no detail"))"
            )
        }
    }

    private static func makeContext(method: OpaquePointer?) throws(TLSError) -> OpaquePointer {
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
