/// What a media queue represents (`queueData.queueType`).
///
/// An open set: values this version does not know are kept as they are.
public struct QueueType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A music album.
    public static let album: QueueType = "ALBUM"
    /// A music playlist.
    public static let playlist: QueueType = "PLAYLIST"
    /// An audiobook.
    public static let audiobook: QueueType = "AUDIOBOOK"
    /// A radio station.
    public static let radioStation: QueueType = "RADIO_STATION"
    /// A podcast series.
    public static let podcastSeries: QueueType = "PODCAST_SERIES"
    /// A TV series.
    public static let tvSeries: QueueType = "TV_SERIES"
    /// A video playlist.
    public static let videoPlaylist: QueueType = "VIDEO_PLAYLIST"
    /// A live TV channel.
    public static let liveTV: QueueType = "LIVE_TV"
    /// A movie.
    public static let movie: QueueType = "MOVIE"
}

extension QueueType: TokenDecodable, TokenEncodable {}
