/// Why a certificate chain did not verify.
public struct CertificateVerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Stable identifiers for each kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case untrusted = 1
            case expired = 2
            case notYetValid = 3
            case pathLengthExceeded = 4
            case nameConstraintViolation = 5
            case invalidCA = 6
            case badSignature = 7
            case unhandledCriticalExtension = 8
            case malformedCertificate = 9
            case other = 10
        }

        fileprivate let base: Base

        /// No path leads from the certificate to a trust anchor.
        public static let untrusted = Code(base: .untrusted)
        /// A certificate of the path expired before the verification time.
        public static let expired = Code(base: .expired)
        /// A certificate of the path is not yet valid at the verification time.
        public static let notYetValid = Code(base: .notYetValid)
        /// A CA's path-length constraint is exceeded.
        public static let pathLengthExceeded = Code(base: .pathLengthExceeded)
        /// A name falls outside a CA's name constraints, or the constraints cannot be checked.
        public static let nameConstraintViolation = Code(base: .nameConstraintViolation)
        /// An issuing certificate is not allowed to act as a CA.
        public static let invalidCA = Code(base: .invalidCA)
        /// A signature in the path does not verify.
        public static let badSignature = Code(base: .badSignature)
        /// A certificate carries a critical extension that cannot be processed.
        public static let unhandledCriticalExtension = Code(base: .unhandledCriticalExtension)
        /// A certificate has fields that cannot be decoded (validity dates, keys, ...).
        public static let malformedCertificate = Code(base: .malformedCertificate)
        /// Any other failure; ``CertificateVerificationError/reason`` says which.
        public static let other = Code(base: .other)

        /// The stable numeric value of the code.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .untrusted: "untrusted"
            case .expired: "expired"
            case .notYetValid: "notYetValid"
            case .pathLengthExceeded: "pathLengthExceeded"
            case .nameConstraintViolation: "nameConstraintViolation"
            case .invalidCA: "invalidCA"
            case .badSignature: "badSignature"
            case .unhandledCriticalExtension: "unhandledCriticalExtension"
            case .malformedCertificate: "malformedCertificate"
            case .other: "other"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The position in the path of the certificate concerned (0 = the leaf).
    public let depth: Int
    /// The common name (or, lacking one, the subject) of the certificate concerned.
    public let certificateName: String
    /// OpenSSL's explanation.
    public let reason: String

    /// Creates an error.
    public init(_ code: Code, depth: Int, certificateName: String, reason: String) {
        self.code = code
        self.depth = depth
        self.certificateName = certificateName
        self.reason = reason
    }

    public static func == (lhs: CertificateVerificationError, rhs: CertificateVerificationError) -> Bool {
        lhs.code == rhs.code
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        "\(code): certificate \"\(certificateName)\" at depth \(depth): \(reason)"
    }
}
