import Dispatch

/// A point in time on a monotonic clock, as an offset from the clock's origin.
///
/// The mDNS state machines take the current instant with every event, so they can be
/// driven by a manual clock in tests and by ``MDNSSystemClock`` in production.
package struct MDNSInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's origin.
    package var offset: Duration

    package init(offset: Duration) {
        self.offset = offset
    }

    /// The origin.
    package static let zero = MDNSInstant(offset: .zero)

    package static func < (lhs: MDNSInstant, rhs: MDNSInstant) -> Bool { lhs.offset < rhs.offset }
    package static func + (lhs: MDNSInstant, rhs: Duration) -> MDNSInstant { MDNSInstant(offset: lhs.offset + rhs) }
    package static func - (lhs: MDNSInstant, rhs: Duration) -> MDNSInstant { MDNSInstant(offset: lhs.offset - rhs) }
    package static func - (lhs: MDNSInstant, rhs: MDNSInstant) -> Duration { lhs.offset - rhs.offset }

    package var description: String { "\(offset)" }
}

/// A source of the current instant for the mDNS I/O owners.
package protocol MDNSClock: Sendable {
    /// The current instant.
    func now() -> MDNSInstant
}

/// The monotonic system clock (`DispatchTime`), the one Dispatch timers run on.
package struct MDNSSystemClock: MDNSClock {
    package init() {}

    package func now() -> MDNSInstant {
        MDNSInstant(offset: .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds)))
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
