/// The delays between reconnection attempts: exponential backoff with jitter.
///
/// Attempt *n* (from 0) waits `min(maximum, initial * multiplier^n)` scaled by a random
/// factor in `[1 - jitter, 1 + jitter]`.
public struct ReconnectBackoff: Sendable, Hashable {
    /// The delay before the first attempt.
    public var initialDelay: Duration
    /// The factor applied after each failed attempt.
    public var multiplier: Double
    /// The longest delay.
    public var maximumDelay: Duration
    /// The relative spread of the random factor, from 0 (none) to 1.
    public var jitter: Double
    /// How many attempts are made before the session ends.
    public var maximumAttempts: Int

    /// Creates a policy; the defaults try for about a minute.
    public init(
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(15),
        jitter: Double = 0.2,
        maximumAttempts: Int = 8
    ) {
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maximumAttempts = maximumAttempts
    }

    /// The delay before attempt `attempt` (0-based), given a random number in `[0, 1)`.
    public func delay(forAttempt attempt: Int, random: Double) -> Duration {
        let initial = Self.seconds(initialDelay)
        let cap = Self.seconds(maximumDelay)
        let base = min(cap, initial * pow(multiplier, Double(max(0, attempt))))
        let factor = 1 - jitter + 2 * jitter * min(max(random, 0), 1)
        return .milliseconds(Int64((base * factor * 1000).rounded()))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            result *= base
            remaining -= 1
            if result > 1e12 { break }
        }
        return result
    }
}
