/// The kind of a virtual connection (`CONNECT` `connType`).
///
/// An open set: values this version does not know are kept as they are.
public struct VirtualConnectionType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }
    public var description: String { "\(rawValue)" }

    /// The default: the application is told of the sender.
    public static let strong: VirtualConnectionType = 0
    /// The application may exit when only weak connections remain.
    public static let weak: VirtualConnectionType = 1
    /// The application is not told of the sender.
    public static let invisible: VirtualConnectionType = 2
}

extension VirtualConnectionType: TokenDecodable, TokenEncodable {}
