/// Checked conversions for numbers that arrive from a peer.
///
/// JSON numbers from the network can be anything a `Double` holds: `1e300`, `-0`, numbers
/// past `Int.max`. Swift traps when such a value is converted to `Duration` or `Int`, or
/// when integer arithmetic on it overflows, so every conversion of a wire number goes
/// through this type: it either rejects the value (`nil`, for a receiver to answer
/// `INVALID_PARAMS`) or saturates it (for a sender to clamp a status it displays).
package enum WireNumber {
    /// The largest magnitude, in seconds, of a time the system accepts from a peer
    /// (about 317 years; above the live-edge seek sentinel of 2^32 seconds).
    package static let maximumSeconds: Double = 10_000_000_000

    /// `value` when it is a finite time within ±``maximumSeconds``; otherwise `nil`.
    package static func seconds(_ value: Double) -> Double? {
        value.isFinite && abs(value) <= maximumSeconds ? value : nil
    }

    /// `value` clamped to ±``maximumSeconds``; NaN becomes 0.
    package static func clampedSeconds(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, -maximumSeconds), maximumSeconds)
    }

    /// A `Duration` of `seconds`, saturating at ±``maximumSeconds``; NaN is zero. Never traps.
    package static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64((clampedSeconds(seconds) * 1000).rounded(.towardZero)))
    }

    /// The integer part of `value`, or `nil` when it is not finite or does not fit an `Int`.
    package static func integer(_ value: Double) -> Int? {
        guard value.isFinite else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    /// `value` rounded to the nearest integer and clamped to `range`; NaN becomes the lower
    /// bound. Never traps.
    package static func clampedInteger(_ value: Double, in range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return range.lowerBound }
        let rounded = value.rounded()
        if rounded <= Double(range.lowerBound) { return range.lowerBound }
        if rounded >= Double(range.upperBound) { return range.upperBound }
        return Int(rounded)
    }

    /// `base + offset`, or `nil` when the sum overflows.
    package static func offset(_ base: Int, by offset: Int) -> Int? {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? nil : sum
    }
}
