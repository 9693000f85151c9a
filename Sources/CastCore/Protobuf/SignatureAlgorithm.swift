/// The signature scheme of a device-auth challenge or response (`SignatureAlgorithm`).
///
/// Values a peer sends that this type has no constant for are kept as they are.
public struct SignatureAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The enum value on the wire.
    public var rawValue: Int32

    /// Creates an algorithm from its wire value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `UNSPECIFIED` (0).
    public static let unspecified = SignatureAlgorithm(rawValue: 0)
    /// `RSASSA_PKCS1v15` (1), the default of the `signature_algorithm` fields.
    public static let rsassaPKCS1v15 = SignatureAlgorithm(rawValue: 1)
    /// `RSASSA_PSS` (2).
    public static let rsassaPSS = SignatureAlgorithm(rawValue: 2)

    public var description: String {
        switch rawValue {
        case 0: "UNSPECIFIED"
        case 1: "RSASSA_PKCS1v15"
        case 2: "RSASSA_PSS"
        default: "SignatureAlgorithm(\(rawValue))"
        }
    }
}
