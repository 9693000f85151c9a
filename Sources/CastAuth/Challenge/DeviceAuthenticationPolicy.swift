public import CastCrypto

/// How a sender authenticates the Cast devices it connects to.
public struct DeviceAuthenticationPolicy: Hashable, Sendable {
    /// Whether authentication runs, and whether its failure ends the connection.
    public struct Mode: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Int, Sendable {
            case off = 0
            case ifSupported = 1
            case required = 2
        }

        fileprivate let base: Base

        /// No challenge is sent; any device that completes TLS is accepted, so nothing proves
        /// the device is genuine.
        public static let off = Mode(base: .off)
        /// A challenge is sent. A device that answers must pass every check; a device that
        /// answers with an `AuthError` or does not answer in time is accepted unauthenticated.
        public static let ifSupported = Mode(base: .ifSupported)
        /// A challenge is sent and the device must pass every check.
        public static let required = Mode(base: .required)

        /// The stable numeric value.
        public var rawValue: Int { base.rawValue }

        public var description: String {
            switch base {
            case .off: "off"
            case .ifSupported: "ifSupported"
            case .required: "required"
            }
        }
    }

    /// Whether authentication runs, and whether its failure ends the connection.
    public var mode: Mode
    /// Whether Google's production device roots are trusted.
    public var trustsBuiltInRoots: Bool
    /// Roots trusted besides (or, without ``trustsBuiltInRoots``, instead of) the built-in ones,
    /// for example the test root of a virtual device.
    public var additionalTrustAnchors: [Certificate]
    /// How the device's revocation list is used.
    public var crlPolicy: CRLPolicy
    /// Whether Google's production CRL root is trusted to sign revocation lists.
    public var trustsBuiltInCRLRoots: Bool
    /// CRL signing roots trusted besides the built-in one.
    public var additionalCRLTrustAnchors: [Certificate]

    /// Creates a policy.
    /// - Parameters:
    ///   - mode: whether authentication runs and must succeed.
    ///   - trustsBuiltInRoots: whether Google's production device roots are trusted.
    ///   - additionalTrustAnchors: extra device roots.
    ///   - crlPolicy: how the device's CRL is used; optional unless given.
    ///   - trustsBuiltInCRLRoots: whether Google's production CRL root is trusted.
    ///   - additionalCRLTrustAnchors: extra CRL roots.
    public init(
        mode: Mode,
        trustsBuiltInRoots: Bool = true,
        additionalTrustAnchors: [Certificate] = [],
        crlPolicy: CRLPolicy = .optional,
        trustsBuiltInCRLRoots: Bool = true,
        additionalCRLTrustAnchors: [Certificate] = []
    ) {
        self.mode = mode
        self.trustsBuiltInRoots = trustsBuiltInRoots
        self.additionalTrustAnchors = additionalTrustAnchors
        self.crlPolicy = crlPolicy
        self.trustsBuiltInCRLRoots = trustsBuiltInCRLRoots
        self.additionalCRLTrustAnchors = additionalCRLTrustAnchors
    }

    /// Authentication off.
    public static let off = DeviceAuthenticationPolicy(mode: .off)
    /// Authentication when the device supports it, against Google's roots, CRL optional.
    public static let ifSupported = DeviceAuthenticationPolicy(mode: .ifSupported)
    /// Authentication required, against Google's roots, CRL optional.
    public static let required = DeviceAuthenticationPolicy(mode: .required)

    /// The device roots in force.
    public var trustAnchors: [Certificate] {
        (trustsBuiltInRoots ? CastTrustAnchors.deviceRoots : []) + additionalTrustAnchors
    }

    /// The CRL roots in force.
    public var crlTrustAnchors: [Certificate] {
        (trustsBuiltInCRLRoots ? CastTrustAnchors.crlRoots : []) + additionalCRLTrustAnchors
    }
}
