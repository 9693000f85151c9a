public import CastCrypto
import CastSync

/// How a TLS client connects: which versions it offers and how it judges the server.
///
/// The default suits Cast devices: any server certificate is accepted, because a device
/// presents a short-lived self-signed certificate and trust comes from device
/// authentication, which signs that certificate. Use ``Verification/trustRoots(_:)``
/// for servers with a certificate chain to check.
public struct TLSClientConfiguration: Sendable {
    /// How the server's certificate is checked.
    public struct Verification: Sendable {
        enum Mode: Sendable {
            case none
            case roots([Certificate])
        }

        let mode: Mode

        /// Accept any certificate the server presents (Cast devices).
        public static let none = Verification(mode: .none)

        /// Require a chain to one of `roots`. When ``TLSClientConfiguration/serverName`` is
        /// set, it must also match the server's certificate.
        public static func trustRoots(_ roots: [Certificate]) -> Verification {
            Verification(mode: .roots(roots))
        }

        /// Require a chain to one of the certificates in `pem` (one or more PEM blocks).
        /// - Throws: ``TLSError`` with code ``TLSError/Code/invalidConfiguration`` when the
        ///   text holds no readable certificate.
        public static func trustRoots(pem: String) throws(TLSError) -> Verification {
            let roots: [Certificate]
            do {
                roots = try Certificate.certificates(pemEncoded: pem)
            } catch {
                throw TLSError(configuration: error, what: "trust roots")
            }
            guard !roots.isEmpty else {
                throw TLSError(code: .invalidConfiguration, reason: "trust roots: no PEM certificate found")
            }
            return .trustRoots(roots)
        }

        /// `true` when the server's certificate is checked.
        public var verifiesPeer: Bool {
            if case .roots = mode { return true }
            return false
        }
    }

    /// How the server's certificate is checked. Defaults to ``Verification/none``.
    public var verification: Verification = .none {
        didSet { cache = ContextCache() }
    }
    /// The host name sent in the SNI extension, and checked against the certificate when
    /// verifying. `nil` sends none.
    public var serverName: String? {
        didSet { cache = ContextCache() }
    }
    /// The oldest version offered. Defaults to TLS 1.2.
    public var minimumVersion: TLSVersion = .v1_2 {
        didSet { cache = ContextCache() }
    }
    /// The newest version offered. Defaults to TLS 1.3.
    public var maximumVersion: TLSVersion = .v1_3 {
        didSet { cache = ContextCache() }
    }
    /// How long the handshake may take after the TCP connection is up.
    public var handshakeTimeout: Duration = .seconds(10) {
        didSet { cache = ContextCache() }
    }

    /// The OpenSSL context built from these settings, shared by copies of an unchanged
    /// configuration so that each connection does not pay for building one.
    /// Every configuration starts with the default settings, so they share one cache.
    private var cache = ContextCache.defaultSettings

    /// Creates the default client configuration.
    public init() {}

    /// The context for these settings, built on first use.
    func makeContext() throws(TLSError) -> TLSContext {
        try cache.context { () throws(TLSError) in try TLSContext(client: self) }
    }
}

/// Holds the context built from one client configuration.
final class ContextCache: Sendable {
    static let defaultSettings = ContextCache()

    private let stored = Locked<TLSContext?>(nil)

    /// The context, built by `make` under the lock: a caller that comes while another builds
    /// it waits for that one instead of paying for a second.
    func context(_ make: () throws(TLSError) -> TLSContext) throws(TLSError) -> TLSContext {
        try stored.withLock { (existing) throws(TLSError) -> TLSContext in
            if let existing { return existing }
            let context = try make()
            existing = context
            return context
        }
    }
}
