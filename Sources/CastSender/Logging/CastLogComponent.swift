/// The part of the SDK a log message comes from, used by ``CastLogFilter``.
public struct CastLogComponent: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The context and its options.
    public static let context: CastLogComponent = "CastContext"
    /// Device discovery.
    public static let discovery: CastLogComponent = "DiscoveryManager"
    /// Session lifecycle.
    public static let session: CastLogComponent = "SessionManager"
    /// The device connection: messages, heartbeat, requests.
    public static let connection: CastLogComponent = "DeviceConnection"
    /// Media control.
    public static let media: CastLogComponent = "RemoteMediaClient"
    /// Custom channels.
    public static let channel: CastLogComponent = "CastChannel"

    public var description: String { rawValue }
}
