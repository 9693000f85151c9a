/// Whether a receiver can run an application (`GET_APP_AVAILABILITY` reply).
///
/// An open set: values this version does not know are kept as they are.
public struct AppAvailability: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The application can be launched.
    public static let available: AppAvailability = "APP_AVAILABLE"
    /// The application cannot be launched.
    public static let unavailable: AppAvailability = "APP_UNAVAILABLE"
}

extension AppAvailability: TokenDecodable, TokenEncodable {}
