public import CastSender

/// What the Cast button shows, following `CastState` (as `GCKUICastButton`).
public enum CastButtonState: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No device found: the button stays visible, drawn as unavailable.
    case unavailable
    /// Devices found, not casting: the inactive icon.
    case available
    /// A session is starting: the animated icon.
    case connecting
    /// Casting: the active icon.
    case connected

    /// The button state for a cast state; unknown future states count as unavailable.
    public init(_ castState: CastState) {
        switch castState {
        case .notConnected: self = .available
        case .connecting: self = .connecting
        case .connected: self = .connected
        default: self = .unavailable
        }
    }

    /// The default accessibility label.
    public var defaultAccessibilityLabel: String {
        switch self {
        case .unavailable: "Cast. No devices available"
        case .available: "Cast. Not connected"
        case .connecting: "Cast. Connecting"
        case .connected: "Cast. Connected"
        }
    }

    public var description: String {
        switch self {
        case .unavailable: "unavailable"
        case .available: "available"
        case .connecting: "connecting"
        case .connected: "connected"
        }
    }
}
