/// The bookkeeping of a size-bounded least-recently-used cache, free of I/O: which keys it
/// holds, their sizes and use order, and what to evict.
struct ImageCacheIndex: Sendable, Hashable {
    private struct Entry: Sendable, Hashable {
        var size: Int
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0
    private(set) var totalSize = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Marks `key` as just used; returns whether it is held.
    mutating func touch(_ key: String) -> Bool {
        guard entries[key] != nil else { return false }
        clock += 1
        entries[key]?.lastUse = clock
        return true
    }

    /// Adds (or replaces) `key` as the most recently used entry and returns the keys to
    /// evict, least recently used first, so that the total fits the capacity. An entry
    /// larger than the whole capacity is evicted itself.
    mutating func insert(_ key: String, size: Int) -> [String] {
        if let old = entries[key] { totalSize -= old.size }
        clock += 1
        entries[key] = Entry(size: max(0, size), lastUse: clock)
        totalSize += max(0, size)
        var evicted: [String] = []
        while totalSize > capacity, let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            evicted.append(victim)
            _ = remove(victim)
        }
        return evicted
    }

    /// Forgets `key`; returns whether it was held.
    mutating func remove(_ key: String) -> Bool {
        guard let old = entries.removeValue(forKey: key) else { return false }
        totalSize -= old.size
        return true
    }

    /// The keys from least to most recently used.
    var keysByUse: [String] { entries.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key) }
}
