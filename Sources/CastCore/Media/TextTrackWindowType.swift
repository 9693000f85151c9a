/// The window shape behind text-track text (`windowType`).
///
/// An open set: values this version does not know are kept as they are.
public struct TextTrackWindowType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// No window.
    public static let noWindow: TextTrackWindowType = "NONE"
    /// A rectangular window.
    public static let normal: TextTrackWindowType = "NORMAL"
    /// A window with rounded corners.
    public static let roundedCorners: TextTrackWindowType = "ROUNDED_CORNERS"
}

extension TextTrackWindowType: TokenDecodable, TokenEncodable {}
