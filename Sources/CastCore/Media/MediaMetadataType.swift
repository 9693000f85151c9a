/// The kind of media metadata describes (`metadata.metadataType`); values from 100 up are app-defined.
///
/// An open set: values this version does not know are kept as they are.
public struct MediaMetadataType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }
    public var description: String { "\(rawValue)" }

    /// Generic media.
    public static let generic: MediaMetadataType = 0
    /// A movie.
    public static let movie: MediaMetadataType = 1
    /// An episode of a TV show.
    public static let tvShow: MediaMetadataType = 2
    /// A music track.
    public static let musicTrack: MediaMetadataType = 3
    /// A photo.
    public static let photo: MediaMetadataType = 4
    /// A chapter of an audiobook.
    public static let audiobookChapter: MediaMetadataType = 5
    /// The first app-defined type.
    public static let user: MediaMetadataType = 100
}

extension MediaMetadataType: TokenDecodable, TokenEncodable {}
