/// Short messages shown one after another, each for a while: the toast line's state.
///
/// Time is given by the caller (an instant of any clock), so the queue can be tested
/// without waiting. Ask ``message(at:)`` what to show when drawing, and ``nextChange(after:)``
/// when to draw again.
public struct ToastQueue<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    private struct Entry: Sendable {
        var message: String
        var duration: Duration
    }

    private var entries: [Entry] = []
    private var shownSince: Instant?

    /// The longest queue kept; older waiting messages are dropped past it.
    public let capacity: Int

    /// Creates an empty queue.
    public init(capacity: Int = 8) {
        self.capacity = max(1, capacity)
    }

    /// Queues a message to be shown for `duration` once the messages before it are done.
    public mutating func post(_ message: String, duration: Duration = .seconds(3), now: Instant) {
        expire(now: now)
        if entries.isEmpty {
            shownSince = now
        }
        entries.append(Entry(message: message, duration: duration))
        if entries.count > capacity {
            entries.remove(at: 1)
        }
    }

    /// Removes the messages `matches` accepts, shown or waiting; when the one showing goes,
    /// the next starts at `now`.
    public mutating func withdraw(now: Instant, where matches: (String) -> Bool) {
        expire(now: now)
        guard let first = entries.first else { return }
        let showingWithdrawn = matches(first.message)
        entries.removeAll { matches($0.message) }
        if entries.isEmpty {
            shownSince = nil
        } else if showingWithdrawn {
            shownSince = now
        }
    }

    /// Removes every message.
    public mutating func removeAll() {
        entries.removeAll()
        shownSince = nil
    }

    /// The message showing at `now`, if any; drops those whose time is over.
    public mutating func message(at now: Instant) -> String? {
        expire(now: now)
        return entries.first?.message
    }

    /// When the message showing at `now` ends, or `nil` when none is showing.
    public func nextChange(after now: Instant) -> Instant? {
        var copy = self
        copy.expire(now: now)
        guard let start = copy.shownSince, let first = copy.entries.first else { return nil }
        return start.advanced(by: first.duration)
    }

    private mutating func expire(now: Instant) {
        while let start = shownSince, let first = entries.first, start.advanced(by: first.duration) <= now {
            entries.removeFirst()
            shownSince = entries.isEmpty ? nil : start.advanced(by: first.duration)
        }
    }
}
