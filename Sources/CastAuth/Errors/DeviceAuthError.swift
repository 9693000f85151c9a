public import CastCrypto

/// Why a Cast device could not be authenticated.
///
/// Codes follow the numbering of the Google Cast SDK's `GCKErrorCode` for the device
/// authentication phase, so that an application can report them the same way. The description
/// names the certificate concerned (by common name) and the reason.
public struct DeviceAuthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers, numbered as `GCKErrorCode`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case deviceAuthenticationFailure = 3
            case authenticationErrorReceived = 40
            case malformedClientCertificate = 41
            case notX509Certificate = 42
            case deviceCertificateNotTrusted = 43
            case sslCertificateNotTrusted = 44
            case malformedAuthenticationResponse = 45
            case deviceCapabilityNotSupported = 46
            case crlInvalid = 47
            case crlCheckFailed = 48
            case messageParseFailure = 100
            case challengeReceivedFailure = 101
            case timeoutFailure = 102
        }

        fileprivate let base: Base

        /// The response does not prove the device's identity: the signature does not verify, or
        /// the echoed nonce is not the one sent (3).
        public static let deviceAuthenticationFailure = Code(base: .deviceAuthenticationFailure)
        /// The device answered the challenge with an `AuthError` (40).
        public static let authenticationErrorReceived = Code(base: .authenticationErrorReceived)
        /// The device certificate cannot serve as one: it is a CA, its key usage forbids
        /// signatures, or its key is not RSA of at least 2048 bits (41).
        public static let malformedClientCertificate = Code(base: .malformedClientCertificate)
        /// A certificate of the response is not a DER X.509 certificate (42).
        public static let notX509Certificate = Code(base: .notX509Certificate)
        /// The device certificate does not chain to a trusted Cast root at the verification time (43).
        public static let deviceCertificateNotTrusted = Code(base: .deviceCertificateNotTrusted)
        /// The device's TLS certificate is unreadable, not yet valid, expired, or valid too long (44).
        public static let sslCertificateNotTrusted = Code(base: .sslCertificateNotTrusted)
        /// The response lacks a signature or device certificate (45).
        public static let malformedAuthenticationResponse = Code(base: .malformedAuthenticationResponse)
        /// The response uses a signature or hash algorithm this verifier does not support (46).
        public static let deviceCapabilityNotSupported = Code(base: .deviceCapabilityNotSupported)
        /// A revocation list is required but absent, or the one supplied is not valid (47).
        public static let crlInvalid = Code(base: .crlInvalid)
        /// The revocation list revokes a certificate of the device's chain (48).
        public static let crlCheckFailed = Code(base: .crlCheckFailed)
        /// The reply is not a binary device-auth message that can be decoded (100).
        public static let messageParseFailure = Code(base: .messageParseFailure)
        /// The device sent a challenge where a response was expected (101).
        public static let challengeReceivedFailure = Code(base: .challengeReceivedFailure)
        /// The device did not answer the challenge in time (102).
        public static let timeoutFailure = Code(base: .timeoutFailure)

        /// The `GCKErrorCode` value.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .deviceAuthenticationFailure: "deviceAuthenticationFailure"
            case .authenticationErrorReceived: "authenticationErrorReceived"
            case .malformedClientCertificate: "malformedClientCertificate"
            case .notX509Certificate: "notX509Certificate"
            case .deviceCertificateNotTrusted: "deviceCertificateNotTrusted"
            case .sslCertificateNotTrusted: "sslCertificateNotTrusted"
            case .malformedAuthenticationResponse: "malformedAuthenticationResponse"
            case .deviceCapabilityNotSupported: "deviceCapabilityNotSupported"
            case .crlInvalid: "crlInvalid"
            case .crlCheckFailed: "crlCheckFailed"
            case .messageParseFailure: "messageParseFailure"
            case .challengeReceivedFailure: "challengeReceivedFailure"
            case .timeoutFailure: "timeoutFailure"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The common name (or subject) of the certificate concerned, when one is.
    public let certificateName: String?
    /// Why, in words.
    public let reason: String
    /// The path-validation failure behind a ``Code/deviceCertificateNotTrusted`` or CRL error.
    public let certificateError: CertificateVerificationError?

    /// Creates an error.
    public init(
        _ code: Code,
        certificateName: String? = nil,
        reason: String,
        certificateError: CertificateVerificationError? = nil
    ) {
        self.code = code
        self.certificateName = certificateName
        self.reason = reason
        self.certificateError = certificateError
    }

    public static func == (lhs: DeviceAuthError, rhs: DeviceAuthError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "device authentication failed (\(code), \(code.rawValue))"
        if let certificateName { text += ": certificate \"\(certificateName)\"" }
        return text + ": \(reason)"
    }
}
