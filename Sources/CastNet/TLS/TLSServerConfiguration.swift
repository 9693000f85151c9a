/// How a TLS server presents itself: certificate chain, private key and versions.
public struct TLSServerConfiguration: Sendable {
    /// The certificate chain (leaf first) and private key, in PEM.
    let certificateChainPEM: String
    let privateKeyPEM: String

    /// The oldest version accepted. Defaults to TLS 1.2.
    public var minimumVersion: TLSVersion = .v1_2
    /// The newest version accepted. Defaults to TLS 1.3.
    public var maximumVersion: TLSVersion = .v1_3
    /// How long a client may take to finish the handshake.
    public var handshakeTimeout: Duration = .seconds(10)

    /// Creates a configuration from PEM text.
    /// - Parameters:
    ///   - certificateChainPEM: the server certificate, then any intermediates, as PEM blocks.
    ///   - privateKeyPEM: the private key of the server certificate, as a PEM block.
    ///
    /// The material is checked when a listener starts (``TLSError/Code/invalidConfiguration``).
    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// Creates a configuration from PEM files.
    /// - Throws: ``TLSError`` with code ``TLSError/Code/invalidConfiguration`` when a file
    ///   cannot be read.
    public init(certificateChainFile: String, privateKeyFile: String) throws(TLSError) {
        self.init(
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
