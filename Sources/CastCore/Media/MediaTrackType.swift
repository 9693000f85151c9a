/// The kind of a media track (`tracks[].type`).
///
/// An open set: values this version does not know are kept as they are; a known value in
/// another case (`audio`, as some apps echo what a sender sent) reads as the known one.
public struct MediaTrackType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.canonicalized(among: Self.knownValues) }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Subtitles, captions and other text.
    public static let text: MediaTrackType = "TEXT"
    /// An audio track.
    public static let audio: MediaTrackType = "AUDIO"
    /// A video track.
    public static let video: MediaTrackType = "VIDEO"
}

extension MediaTrackType: TokenDecodable, TokenEncodable {}

extension MediaTrackType {
    static let knownValues = ["TEXT", "AUDIO", "VIDEO"]
}
