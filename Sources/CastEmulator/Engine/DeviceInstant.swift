public import CastTime

/// A point in time on a virtual device's clock: the `CastInstant` of `CastTime`, the one
/// instant type of swift-cast, under the name the engine's API has always used.
///
/// The engine only compares instants and measures the time between them, so any origin works;
/// ``VirtualDevice`` passes its clock's `now`. Tests build instants directly, e.g.
/// `DeviceInstant.zero + .seconds(5)`.
public typealias DeviceInstant = CastInstant

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var secondsValue: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}
