/// An error in a TLS session: configuration, handshake, certificate check or record layer.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of TLS error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case invalidConfiguration = 1
            case handshakeFailed = 2
            case handshakeTimedOut = 3
            case certificateRejected = 4
            case protocolError = 5
            case unexpectedEndOfStream = 6
            case closed = 7
        }

        fileprivate let base: Base

        /// A certificate, key or trust root given in the configuration could not be used.
        public static let invalidConfiguration = Code(base: .invalidConfiguration)
        /// The handshake failed: the peer spoke no TLS, or no version or cipher was shared.
        public static let handshakeFailed = Code(base: .handshakeFailed)
        /// The handshake did not finish within the configured time.
        public static let handshakeTimedOut = Code(base: .handshakeTimedOut)
        /// The peer's certificate did not verify against the configured roots or name.
        public static let certificateRejected = Code(base: .certificateRejected)
        /// A record after the handshake was malformed or failed authentication.
        public static let protocolError = Code(base: .protocolError)
        /// The transport ended before the TLS session did (during the handshake).
        public static let unexpectedEndOfStream = Code(base: .unexpectedEndOfStream)
        /// The session is closed.
        public static let closed = Code(base: .closed)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .invalidConfiguration: "invalidConfiguration"
            case .handshakeFailed: "handshakeFailed"
            case .handshakeTimedOut: "handshakeTimedOut"
            case .certificateRejected: "certificateRejected"
            case .protocolError: "protocolError"
            case .unexpectedEndOfStream: "unexpectedEndOfStream"
            case .closed: "closed"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// Details: OpenSSL's error queue, the certificate check result, or the field concerned.
    public let reason: String

    init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: TLSError, rhs: TLSError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        reason.isEmpty ? "TLS error: \(code)" : "TLS error: \(code): \(reason)"
    }
}
