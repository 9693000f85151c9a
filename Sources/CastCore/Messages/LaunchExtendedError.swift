/// More detail on a failed launch (`LAUNCH_ERROR` `extendedError`).
///
/// An open set: values this version does not know are kept as they are.
public struct LaunchExtendedError: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The user on the receiver refused the launch.
    public static let userNotAllowed: LaunchExtendedError = "USER_NOT_ALLOWED"
    /// The receiver cannot ask its user.
    public static let userNotificationsDisabled: LaunchExtendedError = "USER_NOTIFICATIONS_DISABLED"
}

extension LaunchExtendedError: TokenDecodable, TokenEncodable {}
