import CastTime

/// The requests in flight on one device connection: ids, deadlines, replacement, and what
/// the owner keeps for each (its `Payload`: a name and a completion).
///
/// A value-type state machine: each event returns the entries it settles, and an entry is
/// returned by exactly one event (reply, timeout, cancel, replacement or connection drop),
/// so its owner resolves each request exactly once.
struct RequestTracker<Payload: Sendable>: Sendable {
    /// One request in flight.
    struct Entry: Sendable {
        /// The `requestId` on the wire.
        var id: Int
        /// Requests of the same non-`nil` group replace each other (a second SEEK aborts
        /// the first).
        var replacementGroup: String?
        /// When the request times out.
        var deadline: CastInstant
        /// What the owner keeps for the request.
        var payload: Payload
    }

    private var nextID: Int
    private var pending: [Int: Entry] = [:]
    private var order: [Int] = []

    /// Creates a tracker whose first id is `firstID` (ids are always > 0).
    init(firstID: Int = 1, keeping _: Payload.Type = Payload.self) {
        nextID = max(1, firstID)
    }

    /// The number of requests in flight.
    var count: Int { pending.count }

    /// Whether `id` is in flight.
    func isPending(_ id: Int) -> Bool { pending[id] != nil }

    /// The payload of `id`, while it is in flight.
    func payload(of id: Int) -> Payload? { pending[id]?.payload }

    /// The earliest deadline, if any request is in flight.
    var nextDeadline: CastInstant? { pending.values.map(\.deadline).min() }

    /// Starts a request: returns its id and the requests of the same group it replaces.
    mutating func begin(
        replacementGroup: String? = nil,
        deadline: CastInstant,
        payload: Payload
    ) -> (id: Int, replaced: [Entry]) {
        var replaced: [Entry] = []
        if let replacementGroup {
            for id in order where pending[id]?.replacementGroup == replacementGroup {
                if let entry = remove(id) { replaced.append(entry) }
            }
        }
        var id = nextID
        while pending[id] != nil { id = Self.successor(of: id) }
        nextID = Self.successor(of: id)
        pending[id] = Entry(id: id, replacementGroup: replacementGroup, deadline: deadline, payload: payload)
        order.append(id)
        return (id, replaced)
    }

    /// A reply (success or error) for `id` arrived; returns the entry if it was in flight.
    mutating func settle(_ id: Int) -> Entry? { remove(id) }

    /// The app cancelled `id`; returns the entry if it was in flight.
    mutating func cancel(_ id: Int) -> Entry? { remove(id) }

    /// Returns (and forgets) every request whose deadline is at or before `now`, oldest first.
    mutating func expire(now: CastInstant) -> [Entry] {
        let due = order.compactMap { pending[$0] }.filter { $0.deadline <= now }
        for entry in due { _ = remove(entry.id) }
        return due
    }

    /// The connection dropped: returns (and forgets) every request, oldest first.
    mutating func drain() -> [Entry] {
        let all = order.compactMap { pending[$0] }
        pending.removeAll()
        order.removeAll()
        return all
    }

    private mutating func remove(_ id: Int) -> Entry? {
        guard let entry = pending.removeValue(forKey: id) else { return nil }
        if pending.isEmpty {
            // Most of a session's life has no request in flight: hold no table for it
            // (about 0.5 KiB a session once a few requests overlapped).
            pending = [:]
            order = []
        } else {
            order.removeAll { $0 == id }
        }
        return entry
    }

    private static func successor(of id: Int) -> Int {
        id >= Int(Int32.max) ? 1 : id + 1
    }
}

extension RequestTracker.Entry: Equatable where Payload: Equatable {}
extension RequestTracker.Entry: Hashable where Payload: Hashable {}

extension RequestTracker where Payload == Void {
    /// Creates a tracker that keeps nothing but ids and deadlines.
    init(firstID: Int = 1) {
        self.init(firstID: firstID, keeping: Void.self)
    }

    /// Starts a request with no payload.
    mutating func begin(replacementGroup: String? = nil, deadline: CastInstant) -> (id: Int, replaced: [Entry]) {
        begin(replacementGroup: replacementGroup, deadline: deadline, payload: ())
    }
}
