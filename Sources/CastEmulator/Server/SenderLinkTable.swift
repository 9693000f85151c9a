import CastSync

/// The sender connections a device has open, by connection number, under a lock of their own.
///
/// The device's engine step reads and changes the table while it holds the engine's lock (the
/// table's lock is always taken second), so that every connection sees the engine's frames in
/// the order the engine produced them. Once closed, the table takes no new connection.
final class SenderLinkTable: Sendable {
    private struct State {
        var links: [Int: SenderLink] = [:]
        var next = 1
        var closed = false
    }

    private let state = Locked(State())

    /// The number of connections open now.
    var count: Int { state.withLock { $0.links.count } }

    /// Every connection open now.
    var all: [SenderLink] { state.withLock { Array($0.links.values) } }

    /// Adds the link `make` builds with the next connection number; `nil` (and `make` is not
    /// called) once the table is closed.
    func add(_ make: (Int) -> SenderLink) -> SenderLink? {
        state.withLock { state in
            guard !state.closed else { return nil }
            let link = make(state.next)
            state.next += 1
            state.links[link.id] = link
            return link
        }
    }

    /// The connection numbered `id`, if open.
    func link(_ id: Int) -> SenderLink? { state.withLock { $0.links[id] } }

    /// Removes and returns the connection numbered `id`; `nil` when it was already removed.
    func remove(_ id: Int) -> SenderLink? { state.withLock { $0.links.removeValue(forKey: id) } }

    /// Removes and returns every connection; new ones are still taken.
    func removeAll() -> [SenderLink] {
        state.withLock { state in
            defer { state.links = [:] }
            return Array(state.links.values)
        }
    }

    /// Removes and returns every connection and takes no new one from now on.
    func close() -> [SenderLink] {
        state.withLock { state in
            state.closed = true
            defer { state.links = [:] }
            return Array(state.links.values)
        }
    }
}
