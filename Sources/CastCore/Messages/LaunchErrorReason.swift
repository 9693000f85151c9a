/// Why a launch failed (`LAUNCH_ERROR` `reason`).
///
/// An open set: values this version does not know are kept as they are.
public struct LaunchErrorReason: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The request was malformed, e.g. without an app id.
    public static let badParameter: LaunchErrorReason = "BAD_PARAMETER"
    /// The launch was cancelled; pychromecast retries once.
    public static let cancelled: LaunchErrorReason = "CANCELLED"
    /// The launch is not allowed.
    public static let notAllowed: LaunchErrorReason = "NOT_ALLOWED"
    /// The application is unknown.
    public static let notFound: LaunchErrorReason = "NOT_FOUND"
    /// The application did not start in time.
    public static let castInitTimeout: LaunchErrorReason = "CAST_INIT_TIMEOUT"
    /// The receiver failed.
    public static let systemError: LaunchErrorReason = "SYSTEM_ERROR"
}

extension LaunchErrorReason: TokenDecodable, TokenEncodable {}
