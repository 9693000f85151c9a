/// How a device's certificate revocation list (CRL) is used.
public struct CRLPolicy: Hashable, Sendable, CustomStringConvertible {
    fileprivate enum Base: Int, Sendable {
        case none = 0
        case optional = 1
        case required = 2
    }

    fileprivate let base: Base

    /// The CRL is ignored.
    public static let none = CRLPolicy(base: .none)
    /// A valid CRL is enforced; a missing or invalid one is ignored (as Chromium does by default).
    public static let optional = CRLPolicy(base: .optional)
    /// A valid CRL must be present and is enforced.
    public static let required = CRLPolicy(base: .required)

    /// The stable numeric value.
    public var rawValue: Int { base.rawValue }

    public var description: String {
        switch base {
        case .none: "none"
        case .optional: "optional"
        case .required: "required"
        }
    }
}
