/// A TLS protocol version.
public struct TLSVersion: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The wire value (0x0303 for TLS 1.2, 0x0304 for TLS 1.3).
    public let rawValue: Int

    /// Creates a version from its wire value.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// TLS 1.2.
    public static let v1_2 = TLSVersion(rawValue: 0x0303)
    /// TLS 1.3.
    public static let v1_3 = TLSVersion(rawValue: 0x0304)

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch rawValue {
        case 0x0303: "TLS 1.2"
        case 0x0304: "TLS 1.3"
        default: "TLS 0x\(String(rawValue, radix: 16))"
        }
    }
}
