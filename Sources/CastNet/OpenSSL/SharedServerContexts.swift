import CastSync

/// The server `SSL_CTX`s of the process, one per range of TLS versions, shared by every
/// listener: a server context holds only settings, and each session gets its listener's
/// certificate and key (see ``TLSContext``).
///
/// At most one context per version pair is ever built (a handful), and they live as long as
/// the process.
enum SharedServerContexts {
    private struct Versions: Hashable {
        let minimum: TLSVersion
        let maximum: TLSVersion
    }

    private static let handles = Locked<[Versions: SSLContextHandle]>([:])

    /// The shared context for `minimum` to `maximum`, built on first use.
    /// - Throws: ``TLSError`` with ``TLSError/Code/invalidConfiguration`` for a range
    ///   outside TLS 1.2 to 1.3, or when OpenSSL cannot build a context.
    static func handle(minimum: TLSVersion, maximum: TLSVersion) throws(TLSError) -> SSLContextHandle {
        let key = Versions(minimum: minimum, maximum: maximum)
        if let handle = handles.withLock({ $0[key] }) { return handle }
        let made = try TLSContext(sharedServerMinimum: minimum, maximum: maximum).sharedHandle
        return handles.withLock { handles in
            if let existing = handles[key] { return existing }
            handles[key] = made
            return made
        }
    }
}
