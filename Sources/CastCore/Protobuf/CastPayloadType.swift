/// The `payload_type` of a ``CastMessage`` (`CastMessage.PayloadType`).
///
/// Values this type has no constant for are kept as they are.
public struct CastPayloadType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The enum value on the wire.
    public var rawValue: Int32

    /// Creates a payload type from its wire value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `STRING` (0): the payload is in `payload_utf8` (JSON for the platform namespaces).
    public static let string = CastPayloadType(rawValue: 0)
    /// `BINARY` (1): the payload is in `payload_binary`.
    public static let binary = CastPayloadType(rawValue: 1)

    public var description: String {
        switch rawValue {
        case 0: "STRING"
        case 1: "BINARY"
        default: "CastPayloadType(\(rawValue))"
        }
    }
}
