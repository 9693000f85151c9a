/// A user action on the current media (`USER_ACTION` `userAction`).
///
/// An open set: values this version does not know are kept as they are.
public struct UserAction: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The user likes the media.
    public static let like: UserAction = "LIKE"
    /// The user dislikes the media.
    public static let dislike: UserAction = "DISLIKE"
    /// The user follows the media or its artist.
    public static let follow: UserAction = "FOLLOW"
    /// The user no longer follows.
    public static let unfollow: UserAction = "UNFOLLOW"
    /// The user flags the media as inappropriate.
    public static let flag: UserAction = "FLAG"
    /// The user skips the current ad.
    public static let skipAd: UserAction = "SKIP_AD"
}

extension UserAction: TokenDecodable, TokenEncodable {}
