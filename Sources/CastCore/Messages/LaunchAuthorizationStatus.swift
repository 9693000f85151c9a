/// Progress of a launch that waits for the receiver's user (`LAUNCH_STATUS` `status`).
///
/// An open set: values this version does not know are kept as they are.
public struct LaunchAuthorizationStatus: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Waiting for the user on the receiver to allow the launch.
    public static let userPendingAuthorization: LaunchAuthorizationStatus = "USER_PENDING_AUTHORIZATION"
    /// The user allowed the launch.
    public static let userAllowed: LaunchAuthorizationStatus = "USER_ALLOWED"
}

extension LaunchAuthorizationStatus: TokenDecodable, TokenEncodable {}
