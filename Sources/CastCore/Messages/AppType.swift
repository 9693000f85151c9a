/// The kind of a receiver application (`appType`, `supportedAppTypes`).
///
/// An open set: values this version does not know are kept as they are.
public struct AppType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// A web receiver.
    public static let web: AppType = "WEB"
    /// An Android TV app (Cast Connect).
    public static let androidTV: AppType = "ANDROID_TV"
}

extension AppType: TokenDecodable, TokenEncodable {}
