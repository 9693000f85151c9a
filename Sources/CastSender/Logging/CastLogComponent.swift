/// The part of the SDK a log message comes from, used by ``CastLogFilter`` (GCK filters by
/// class name; these are the SDK's classes).
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
    /// Device authentication (the `deviceauth` challenge and its verification).
    public static let deviceAuth: CastLogComponent = "DeviceAuthenticator"
    /// Media control.
    public static let media: CastLogComponent = "RemoteMediaClient"
    /// The media queue cache.
    public static let queue: CastLogComponent = "MediaQueue"
    /// Custom channels.
    public static let channel: CastLogComponent = "CastChannel"
    /// The widgets (`CastSenderUI`).
    public static let ui: CastLogComponent = "CastSenderUI"

    /// Every component the SDK and its widgets log from.
    public static let all: [CastLogComponent] = [
        .context, .discovery, .session, .connection, .deviceAuth, .media, .queue, .channel, .ui,
    ]

    public var description: String { rawValue }
}
