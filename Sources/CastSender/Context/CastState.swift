/// Whether casting is possible and happening (as `GCKCastState`).
///
/// `CastState.didChangeNotification` and its `notificationKey`, the `NotificationCenter` names
/// of Google's SDK, are in `CastSenderNotifications`: this module does not load `Foundation`.
public struct CastState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: no device found.
    public static let noDevicesAvailable = CastState(rawValue: 0)
    /// 1: devices found, no session.
    public static let notConnected = CastState(rawValue: 1)
    /// 2: a session is starting or resuming.
    public static let connecting = CastState(rawValue: 2)
    /// 3: a session is connected.
    public static let connected = CastState(rawValue: 3)

    public var description: String {
        switch rawValue {
        case 0: "no devices available"
        case 1: "not connected"
        case 2: "connecting"
        case 3: "connected"
        default: "state \(rawValue)"
        }
    }
}
