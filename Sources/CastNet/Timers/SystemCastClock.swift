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
