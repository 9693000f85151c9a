/// The font style of text tracks (`fontStyle`).
///
/// An open set: values this version does not know are kept as they are.
public struct TextTrackFontStyle: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Regular.
    public static let normal: TextTrackFontStyle = "NORMAL"
    /// Bold.
    public static let bold: TextTrackFontStyle = "BOLD"
    /// Bold italic.
    public static let boldItalic: TextTrackFontStyle = "BOLD_ITALIC"
    /// Italic.
    public static let italic: TextTrackFontStyle = "ITALIC"
}

extension TextTrackFontStyle: TokenDecodable, TokenEncodable {}
