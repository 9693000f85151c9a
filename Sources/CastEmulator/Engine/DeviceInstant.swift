/// A point in time on a virtual device's clock: a `Duration` since an epoch the owner chose.
///
/// The engine only compares instants and measures the time between them, so any epoch works;
/// owners typically use the moment the device started:
///
/// ```swift
/// let epoch = ContinuousClock.now
/// let now = DeviceInstant(sinceEpoch: ContinuousClock.now - epoch)
/// ```
///
/// Tests build instants directly, e.g. `DeviceInstant.epoch + .seconds(5)`.
public struct DeviceInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The time elapsed since the epoch.
    public var sinceEpoch: Duration

    /// Creates an instant at `sinceEpoch` after the epoch.
    public init(sinceEpoch: Duration) {
        self.sinceEpoch = sinceEpoch
    }

    /// The epoch itself.
    public static let epoch = DeviceInstant(sinceEpoch: .zero)

    /// Creates an instant `seconds` after the epoch.
    public static func seconds(_ seconds: Double) -> DeviceInstant {
        DeviceInstant(sinceEpoch: .seconds(seconds))
    }

    public static func < (lhs: DeviceInstant, rhs: DeviceInstant) -> Bool { lhs.sinceEpoch < rhs.sinceEpoch }

    /// The instant `duration` after `instant`.
    public static func + (instant: DeviceInstant, duration: Duration) -> DeviceInstant {
        DeviceInstant(sinceEpoch: instant.sinceEpoch + duration)
    }

    /// The instant `duration` before `instant`.
    public static func - (instant: DeviceInstant, duration: Duration) -> DeviceInstant {
        DeviceInstant(sinceEpoch: instant.sinceEpoch - duration)
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: DeviceInstant, rhs: DeviceInstant) -> Duration {
        lhs.sinceEpoch - rhs.sinceEpoch
    }

    public var description: String { "T+\(sinceEpoch)" }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var secondsValue: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
