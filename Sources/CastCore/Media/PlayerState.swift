/// The state of a media player (`playerState`).
///
/// An open set: values this version does not know are kept as they are; a known value in
/// another case (`playing`, as some apps echo what a sender sent) reads as the known one.
public struct PlayerState: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.canonicalized(among: Self.knownValues) }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Nothing is playing; see `idleReason`.
    public static let idle: PlayerState = "IDLE"
    /// Playing.
    public static let playing: PlayerState = "PLAYING"
    /// Paused.
    public static let paused: PlayerState = "PAUSED"
    /// Waiting for data while playing.
    public static let buffering: PlayerState = "BUFFERING"
    /// Loading new media (seen in `extendedStatus`).
    public static let loading: PlayerState = "LOADING"
}

extension PlayerState: TokenDecodable, TokenEncodable {}

extension PlayerState {
    static let knownValues = ["IDLE", "PLAYING", "PAUSED", "BUFFERING", "LOADING"]
}
