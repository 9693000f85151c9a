/// The kind of a virtual connection (`CONNECT` `connType`).
///
/// An open set: values this version does not know are kept as they are.
package struct VirtualConnectionType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    package let rawValue: Int

    package init(rawValue: Int) { self.rawValue = rawValue }
    package init(integerLiteral value: Int) { self.rawValue = value }
    package var description: String { "\(rawValue)" }

    /// The default: the application is told of the sender.
    package static let strong: VirtualConnectionType = 0
    /// The application may exit when only weak connections remain.
    package static let weak: VirtualConnectionType = 1
    /// The application is not told of the sender.
    package static let invisible: VirtualConnectionType = 2
}

extension VirtualConnectionType: TokenDecodable, TokenEncodable {}
