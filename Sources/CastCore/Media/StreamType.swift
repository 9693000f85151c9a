/// How a media stream is delivered (`media.streamType`).
///
/// An open set: values this version does not know are kept as they are; a known value in
/// another case (`buffered`, as some apps echo what a sender sent) reads as the known one.
public struct StreamType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.canonicalized(among: Self.knownValues) }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// No stream type given.
    public static let unspecified: StreamType = "NONE"
    /// On-demand content with a known duration.
    public static let buffered: StreamType = "BUFFERED"
    /// A live stream.
    public static let live: StreamType = "LIVE"
}

extension StreamType: TokenDecodable, TokenEncodable {}

extension StreamType {
    static let knownValues = ["NONE", "BUFFERED", "LIVE"]
}
