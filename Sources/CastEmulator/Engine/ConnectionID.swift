/// Identifies one TLS connection from a sender to a virtual device.
///
/// The owner of a ``VirtualDeviceEngine`` picks the values (e.g. a counter) and passes the
/// same value for every event of that connection; the engine never invents one.
public struct ConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// The owner's number for the connection.
    public var rawValue: UInt64

    /// Creates an identifier from the owner's number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Creates an identifier from an integer literal.
    public init(integerLiteral value: UInt64) {
        self.rawValue = value
    }

    public static func < (lhs: ConnectionID, rhs: ConnectionID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "connection-\(rawValue)" }
}
