import Dispatch

/// The real clock: monotonic time, timers on a Dispatch queue.
public struct SystemCastClock: CastClock {
    private static let origin = ContinuousClock.now
    private static let timerQueue = DispatchQueue(label: "cast.clock", qos: .userInitiated, attributes: .concurrent)

    /// Creates the system clock.
    public init() {}

    public var now: CastInstant {
        CastInstant(offset: ContinuousClock.now - Self.origin)
    }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        let item = WorkItemBox(DispatchWorkItem(block: action))
        let (seconds, attoseconds) = max(delay, .zero).components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        Self.timerQueue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item.item)
        return CastTimer { item.item.cancel() }
    }
}

/// Carries a work item into a `@Sendable` closure.
///
/// `@unchecked Sendable`: `DispatchWorkItem.cancel()` is safe to call from any thread.
private final class WorkItemBox: @unchecked Sendable {
    let item: DispatchWorkItem

    init(_ item: DispatchWorkItem) {
        self.item = item
    }
}
