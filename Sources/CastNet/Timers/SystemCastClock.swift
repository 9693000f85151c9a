public import CastTime

/// The real clock: monotonic time, timers on the threads of ``EventLoopGroup/shared``.
///
/// A timer scheduled from one of those threads runs on the same thread, so the heartbeats
/// and request timeouts of the connections of a loop cost that loop no extra wake-up when it
/// is awake anyway; from any other thread, timers are spread over the loops. Actions must
/// not block: they share the thread with the loop's connections.
public struct SystemCastClock: CastClock {
    private static let origin = ContinuousClock.now

    /// Creates the system clock.
    public init() {}

    public var now: CastInstant {
        CastInstant(offset: ContinuousClock.now - Self.origin)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        EventLoopGroup.scheduleOnSharedLoop(after: delay, action)
    }
}

extension CastClock {
    /// Like ``schedule(after:_:)``, but on ``SystemCastClock`` the timer has no slack: it is
    /// never gathered with the loop's other timers due a few milliseconds later. For timers
    /// whose spread in time matters, such as the periodic statuses of many virtual devices
    /// in one process, which real devices would send independently of each other.
    @discardableResult
    package func scheduleExactly(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        guard self is SystemCastClock else { return schedule(after: delay, action) }
        return EventLoopGroup.scheduleOnSharedLoop(after: delay, exact: true, action)
    }
}
