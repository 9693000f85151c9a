/// How a media queue repeats (`repeatMode`).
///
/// An open set: values this version does not know are kept as they are.
public struct RepeatMode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
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
