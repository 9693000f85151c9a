public import CastCrypto

/// How a TLS server presents itself: certificate chain, private key and versions.
public struct TLSServerConfiguration: Sendable {
    /// The server certificate first, then any intermediates.
    public var certificateChain: [Certificate]
    /// The private key of the server certificate.
    public var privateKey: PrivateKey
    /// The oldest version accepted. Defaults to TLS 1.2.
    public var minimumVersion: TLSVersion = .v1_2
    /// The newest version accepted. Defaults to TLS 1.3.
    public var maximumVersion: TLSVersion = .v1_3
    /// How long a client may take to finish the handshake.
    public var handshakeTimeout: Duration = .seconds(10)

    /// Creates a configuration from a certificate chain and its key.
    /// - Parameters:
    ///   - certificateChain: the server certificate, then any intermediates; not empty.
    ///   - privateKey: the key of the server certificate.
    ///
    /// The pair is checked when a listener starts (``TLSError/Code/invalidConfiguration``).
    public init(certificateChain: [Certificate], privateKey: PrivateKey) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    /// Creates a configuration from a self-signed certificate, as a Cast device presents.
    public init(_ identity: SelfSignedCertificate) {
        self.init(certificateChain: [identity.certificate], privateKey: identity.privateKey)
    }

    /// Creates a configuration from PEM text.
    /// - Parameters:
    ///   - certificateChainPEM: the server certificate, then any intermediates, as PEM blocks.
    ///   - privateKeyPEM: the private key of the server certificate, as a PEM block.
    /// - Throws: ``TLSError`` with code ``TLSError/Code/invalidConfiguration`` when the text
    ///   holds no certificate or no key.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws(TLSError) {
        let chain: [Certificate]
        do {
            chain = try Certificate.certificates(pemEncoded: certificateChainPEM)
        } catch {
            throw TLSError(configuration: error, what: "certificate chain")
        }
        guard !chain.isEmpty else {
            throw TLSError(code: .invalidConfiguration, reason: "certificate chain: no PEM certificate found")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pemEncoded: privateKeyPEM)
        } catch {
            throw TLSError(configuration: error, what: "private key")
        }
        self.init(certificateChain: chain, privateKey: key)
    }

    /// Creates a configuration from PEM files.
    /// - Throws: ``TLSError`` with code ``TLSError/Code/invalidConfiguration`` when a file
    ///   cannot be read or holds no certificate or key.
    public init(certificateChainFile: String, privateKeyFile: String) throws(TLSError) {
        try self.init(
            certificateChainPEM: try Self.readText(certificateChainFile),
            privateKeyPEM: try Self.readText(privateKeyFile)
        )
    }

    private static func readText(_ path: String) throws(TLSError) -> String {
        guard let bytes = FileBytes.read(path: path, limit: 1 << 20) else {
            throw TLSError(code: .invalidConfiguration, reason: "cannot read \(path)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
