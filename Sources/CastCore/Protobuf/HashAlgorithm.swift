/// The digest of a device-auth signature (`HashAlgorithm`).
///
/// Values a peer sends that this type has no constant for are kept as they are.
public struct HashAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The enum value on the wire.
    public var rawValue: Int32

    /// Creates an algorithm from its wire value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `SHA1` (0), the default of the `hash_algorithm` fields.
    public static let sha1 = HashAlgorithm(rawValue: 0)
    /// `SHA256` (1).
    public static let sha256 = HashAlgorithm(rawValue: 1)

    public var description: String {
        switch rawValue {
        case 0: "SHA1"
        case 1: "SHA256"
        default: "HashAlgorithm(\(rawValue))"
        }
    }
}
