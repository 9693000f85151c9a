/// The kind of a text track (`tracks[].subtype`).
///
/// An open set: values this version does not know are kept as they are.
public struct TextTrackSubtype: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Subtitles (translation of the dialogue).
    public static let subtitles: TextTrackSubtype = "SUBTITLES"
    /// Closed captions (dialogue and sounds).
    public static let captions: TextTrackSubtype = "CAPTIONS"
    /// Descriptions of the video.
    public static let descriptions: TextTrackSubtype = "DESCRIPTIONS"
    /// Chapter titles.
    public static let chapters: TextTrackSubtype = "CHAPTERS"
    /// Metadata for scripts, not shown.
    public static let metadata: TextTrackSubtype = "METADATA"
}

extension TextTrackSubtype: TokenDecodable, TokenEncodable {}
