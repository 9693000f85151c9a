/// The player state to take after a seek (`resumeState`).
///
/// An open set: values this version does not know are kept as they are.
public struct ResumeState: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Play after seeking.
    public static let playbackStart: ResumeState = "PLAYBACK_START"
    /// Pause after seeking.
    public static let playbackPause: ResumeState = "PLAYBACK_PAUSE"
}

extension ResumeState: TokenDecodable, TokenEncodable {}
