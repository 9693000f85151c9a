/// The `protocol_version` of a ``CastMessage`` (`CastMessage.ProtocolVersion`).
///
/// Every sender and receiver in use sends ``castV2_1_0``; versions are negotiated in the
/// JSON `CONNECT` message instead. Values this type has no constant for are kept as they
/// are.
public struct CastProtocolVersion: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The enum value on the wire.
    public var rawValue: Int32

    /// Creates a version from its wire value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `CASTV2_1_0` (0): the version everyone sends.
    public static let castV2_1_0 = CastProtocolVersion(rawValue: 0)
    /// `CASTV2_1_1` (1): the first, deprecated, chunking scheme.
    public static let castV2_1_1 = CastProtocolVersion(rawValue: 1)
    /// `CASTV2_1_2` (2): reworked chunking.
    public static let castV2_1_2 = CastProtocolVersion(rawValue: 2)
    /// `CASTV2_1_3` (3): binary payloads over UTF-8 namespaces.
    public static let castV2_1_3 = CastProtocolVersion(rawValue: 3)

    public var description: String {
        switch rawValue {
        case 0...3: "CASTV2_1_\(rawValue)"
        default: "CastProtocolVersion(\(rawValue))"
        }
    }
}
