/// The generic font family of text tracks (`fontGenericFamily`).
///
/// An open set: values this version does not know are kept as they are.
public struct TextTrackFontGenericFamily: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Sans-serif.
    public static let sansSerif: TextTrackFontGenericFamily = "SANS_SERIF"
    /// Monospaced sans-serif.
    public static let monospacedSansSerif: TextTrackFontGenericFamily = "MONOSPACED_SANS_SERIF"
    /// Serif.
    public static let serif: TextTrackFontGenericFamily = "SERIF"
    /// Monospaced serif.
    public static let monospacedSerif: TextTrackFontGenericFamily = "MONOSPACED_SERIF"
    /// Casual.
    public static let casual: TextTrackFontGenericFamily = "CASUAL"
    /// Cursive.
    public static let cursive: TextTrackFontGenericFamily = "CURSIVE"
    /// Small capitals.
    public static let smallCapitals: TextTrackFontGenericFamily = "SMALL_CAPITALS"
}

extension TextTrackFontGenericFamily: TokenDecodable, TokenEncodable {}
