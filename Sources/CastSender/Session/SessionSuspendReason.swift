/// Why a session was suspended (as `GCKConnectionSuspendReason`).
public struct SessionSuspendReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// -1: unknown.
    public static let unknown = SessionSuspendReason(rawValue: -1)
    /// 0: none.
    public static let none = SessionSuspendReason(rawValue: 0)
    /// 1: the app went to the background.
    public static let appBackgrounded = SessionSuspendReason(rawValue: 1)
    /// 2: the connection failed or the device stopped answering heartbeats.
    public static let networkError = SessionSuspendReason(rawValue: 2)
    /// 3: the network is not reachable.
    public static let networkNotReachable = SessionSuspendReason(rawValue: 3)
    /// 4: the app was terminated.
    public static let appTerminated = SessionSuspendReason(rawValue: 4)

    public var description: String {
        switch rawValue {
        case -1: "unknown"
        case 0: "none"
        case 1: "app backgrounded"
        case 2: "network error"
        case 3: "network not reachable"
        case 4: "app terminated"
        default: "reason \(rawValue)"
        }
    }
}
