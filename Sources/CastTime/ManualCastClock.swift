import CastSync

/// A clock that moves only when told to, for deterministic tests of timeouts.
///
/// ``advance(by:)`` runs every timer that falls due, in deadline order (ties in scheduling
/// order), on the calling thread, with ``now`` set to each timer's deadline as it runs.
public final class ManualCastClock: CastClock {
    private struct Entry {
        var id: Int
        var deadline: CastInstant
        var action: @Sendable () -> Void
    }

    private struct State {
        var now = CastInstant(offset: .zero)
        var entries: [Entry] = []
        var nextID = 0
        var waiters: [(count: Int, within: Duration?, continuation: CheckedContinuation<Void, Never>)] = []

        func satisfies(count: Int, within: Duration?) -> Bool {
            guard let within else { return entries.count >= count }
            let limit = now.advanced(by: within)
            return entries.count { $0.deadline <= limit } >= count
        }
    }

    private let state = Locked(State())

    /// Creates a clock whose time starts at `start`.
    public init(start: CastInstant = CastInstant(offset: .zero)) {
        state.withLock { $0.now = start }
    }

    public var now: CastInstant { state.withLock { $0.now } }

    /// The number of timers scheduled and not yet fired or cancelled.
    public var scheduledTimerCount: Int { state.withLock { $0.entries.count } }

    /// When the earliest timer not yet fired or cancelled falls due, if any: where a driver
    /// that runs work between timers (an embedded event loop) advances to next.
    public var nextDeadline: CastInstant? { state.withLock { $0.entries.lazy.map(\.deadline).min() } }

    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        let (id, ready) = state.withLock { state -> (Int, [CheckedContinuation<Void, Never>]) in
            let id = state.nextID
            state.nextID += 1
            state.entries.append(Entry(id: id, deadline: state.now.advanced(by: max(delay, .zero)), action: action))
            var ready: [CheckedContinuation<Void, Never>] = []
            let waiters = state.waiters
            state.waiters = []
            for waiter in waiters {
                if state.satisfies(count: waiter.count, within: waiter.within) {
                    ready.append(waiter.continuation)
                } else {
                    state.waiters.append(waiter)
                }
            }
            return (id, ready)
        }
        for continuation in ready { continuation.resume() }
        return CastTimer { [weak self] in
            self?.state.withLock { state in state.entries.removeAll { $0.id == id } }
        }
    }

    /// Suspends until at least `count` timers are scheduled, so a test can advance time
    /// exactly after the code under test armed its timeout.
    /// - Parameters:
    ///   - count: how many timers to wait for.
    ///   - dueWithin: when given, only timers falling due within this time from now count.
    public func waitForScheduledTimers(count: Int = 1, dueWithin: Duration? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let readyNow = state.withLock { state in
                if state.satisfies(count: count, within: dueWithin) { return true }
                state.waiters.append((count, dueWithin, continuation))
                return false
            }
            if readyNow { continuation.resume() }
        }
    }

    /// Moves time forward by `duration`, running every timer that falls due.
    public func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        advance(to: target)
    }

    /// Moves time forward to `instant`, running every timer that falls due on the way.
    public func advance(to instant: CastInstant) {
        while true {
            let due = state.withLock { state -> Entry? in
                var best: Int?
                for (index, entry) in state.entries.enumerated() where entry.deadline <= instant {
                    if let current = best {
                        let chosen = state.entries[current]
                        if entry.deadline < chosen.deadline
                            || (entry.deadline == chosen.deadline && entry.id < chosen.id)
                        {
                            best = index
                        }
                    } else {
                        best = index
                    }
                }
                guard let best else {
                    if state.now < instant { state.now = instant }
                    return nil
                }
                let entry = state.entries.remove(at: best)
                if state.now < entry.deadline { state.now = entry.deadline }
                return entry
            }
            guard let due else { return }
            due.action()
        }
    }
}
