/// The kind of a queue container (`containerMetadata.containerType`).
///
/// An open set: values this version does not know are kept as they are.
public struct ContainerType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A generic container.
    public static let generic: ContainerType = "GENERIC_CONTAINER"
    /// An audiobook with chapters.
    public static let audiobook: ContainerType = "AUDIOBOOK_CONTAINER"
}

extension ContainerType: TokenDecodable, TokenEncodable {}
