import CastTime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A small pool of event loops that connections are spread over, round-robin.
///
/// Thousands of connections share the few threads of a group: no connection owns a thread.
public final class EventLoopGroup: Sendable {
    /// The group used when none is given: one loop per processor, at least two; its threads
    /// last as long as the process.
    public static let shared = EventLoopGroup(loopCount: max(2, defaultLoopCount()), permanent: true)

    /// The loops of the group.
    public let loops: [EventLoop]
    private let nextIndex = Atomic<Int>(0)

    /// Creates a group.
    /// - Parameter loopCount: how many loops (threads) to create; at least one. Their threads
    ///   end when the group and its connections are released.
    public convenience init(loopCount: Int) {
        self.init(loopCount: loopCount, permanent: false)
    }

    private init(loopCount: Int, permanent: Bool) {
        precondition(loopCount > 0, "an event loop group needs at least one loop")
        loops = (0..<loopCount).map { EventLoop(label: "cast.eventloop.\($0)", permanent: permanent) }
    }

    /// Schedules `action` on a loop of ``shared``: the caller's own loop when it runs on one
    /// (no thread is woken for it), else the next one.
    static func scheduleOnSharedLoop(
        after delay: Duration,
        exact: Bool = false,
        _ action: @escaping @Sendable () -> Void
    ) -> CastTimer {
        if let core = LoopCore.currentPermanent { return core.schedule(after: delay, exact: exact, action) }
        return shared.next().schedule(after: delay, exact: exact, action)
    }

    /// Returns the next loop in round-robin order.
    public func next() -> EventLoop {
        let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[index % loops.count]
    }
}

private func defaultLoopCount() -> Int {
    #if canImport(Glibc)
    return Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
    return 2
    #endif
}
