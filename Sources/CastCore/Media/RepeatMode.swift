/// How a media queue repeats (`repeatMode`).
///
/// An open set: values this version does not know are kept as they are; a known value in
/// another case (`repeat_all`, as some apps echo what a sender sent) reads as the known one.
public struct RepeatMode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue.canonicalized(among: Self.knownValues) }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Play the queue once.
    public static let off: RepeatMode = "REPEAT_OFF"
    /// Repeat the whole queue.
    public static let all: RepeatMode = "REPEAT_ALL"
    /// Repeat the current item.
    public static let single: RepeatMode = "REPEAT_SINGLE"
    /// Repeat the whole queue, shuffling it at the end of each pass.
    public static let allAndShuffle: RepeatMode = "REPEAT_ALL_AND_SHUFFLE"
}

extension RepeatMode: TokenDecodable, TokenEncodable {}

extension RepeatMode {
    static let knownValues = ["REPEAT_OFF", "REPEAT_ALL", "REPEAT_SINGLE", "REPEAT_ALL_AND_SHUFFLE"]
}
