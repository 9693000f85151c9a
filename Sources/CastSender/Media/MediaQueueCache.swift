/// The sender's copy of the receiver's queue: the full list of item ids and an LRU cache
/// of items fetched on demand (as `GCKMediaQueue`).
struct MediaQueueCache: Sendable {
    /// A change to report to the queue's listeners.
    enum Change: Hashable, Sendable {
        /// The id list was replaced.
        case reloaded
        /// Items were inserted at these indexes.
        case inserted([Int])
        /// Items at these indexes changed (or became available).
        case updated([Int])
        /// Items at these indexes were removed (indexes before the removal).
        case removed([Int])
    }

    let cacheSize: Int
    let maximumFetchCount: Int
    private(set) var itemIDs: [Int] = []
    /// The items fetched so far, by id (at most ``cacheSize``).
    private(set) var items: [Int: QueueItem] = [:]
    private var recency: [Int] = []
    private var wanted: [Int] = []
    private var inFlight: Set<Int> = []

    init(cacheSize: Int = 100, maximumFetchCount: Int = 20) {
        self.cacheSize = max(1, cacheSize)
        self.maximumFetchCount = max(1, maximumFetchCount)
    }

    var itemCount: Int { itemIDs.count }
    var cachedItemCount: Int { items.count }

    func index(of itemID: Int) -> Int? { itemIDs.firstIndex(of: itemID) }

    func itemID(at index: Int) -> Int? {
        itemIDs.indices.contains(index) ? itemIDs[index] : nil
    }

    /// The cached item at `index`; when it is missing and `fetch` is set, its id is queued
    /// for the next ``takeFetchBatch()``.
    mutating func item(at index: Int, fetch: Bool = true) -> QueueItem? {
        guard let id = itemID(at: index) else { return nil }
        if let item = items[id] {
            touch(id)
            return item
        }
        if fetch, !inFlight.contains(id) {
            wanted.removeAll { $0 == id }
            wanted.append(id)
            if wanted.count > maximumFetchCount { wanted.removeFirst(wanted.count - maximumFetchCount) }
        }
        return nil
    }

    /// The ids to ask for with QUEUE_GET_ITEMS (most recently wanted), now marked in flight.
    mutating func takeFetchBatch() -> [Int] {
        let batch = wanted.filter { itemIDs.contains($0) && items[$0] == nil }
        wanted.removeAll()
        inFlight.formUnion(batch)
        return batch
    }

    /// A fetch failed; its ids may be asked for again.
    mutating func fetchFailed(_ ids: [Int]) {
        inFlight.subtract(ids)
    }

    /// QUEUE_ITEM_IDS: the full id list.
    mutating func setItemIDs(_ ids: [Int]) -> [Change] {
        guard ids != itemIDs else { return [] }
        itemIDs = ids
        let kept = Set(ids)
        items = items.filter { kept.contains($0.key) }
        recency.removeAll { !kept.contains($0) }
        wanted.removeAll { !kept.contains($0) }
        inFlight = inFlight.filter { kept.contains($0) }
        return [.reloaded]
    }

    /// QUEUE_ITEMS: items for ids in the list.
    mutating func store(_ newItems: [QueueItem]) -> [Change] {
        var indexes: [Int] = []
        let positions = firstIndexes()
        for item in newItems {
            guard let id = item.itemID else { continue }
            inFlight.remove(id)
            guard let index = positions[id] else { continue }
            items[id] = item
            touch(id)
            indexes.append(index)
        }
        evict()
        return indexes.isEmpty ? [] : [.updated(indexes.sorted())]
    }

    /// QUEUE_CHANGE: applies an edit. Returns the changes and whether the id list must be
    /// fetched again (an edit that cannot be applied locally).
    mutating func apply(_ change: QueueChangeMessage) -> (changes: [Change], needsReload: Bool) {
        let ids = change.itemIDs ?? []
        switch change.changeType {
        case .insert:
            // Linear in the queue and the change: a device's 30,000-id change must not cost
            // seconds of comparisons (each id was looked up and inserted one at a time).
            let position = change.insertBefore.flatMap { firstIndexes()[$0] } ?? itemIDs.count
            var present = Set(itemIDs)
            let added = ids.filter { present.insert($0).inserted }
            itemIDs.insert(contentsOf: added, at: position)
            let inserted = Array(position..<(position + added.count))
            return (inserted.isEmpty ? [] : [.inserted(inserted)], false)
        case .remove:
            let positions = firstIndexes()
            let indexes = ids.compactMap { positions[$0] }.sorted()
            let removed = Set(ids)
            itemIDs.removeAll { removed.contains($0) }
            for id in removed { items[id] = nil }
            recency.removeAll { removed.contains($0) }
            return (indexes.isEmpty ? [] : [.removed(indexes)], false)
        case .update:
            if let reordered = change.reorderItemIDs, Set(reordered) == Set(itemIDs) {
                itemIDs = reordered
                return ([.reloaded], false)
            }
            if change.reorderItemIDs != nil { return ([], true) }
            let positions = firstIndexes()
            let indexes = ids.compactMap { positions[$0] }.sorted()
            for id in ids { items[id] = nil }
            return (indexes.isEmpty ? [] : [.updated(indexes)], false)
        case .itemsChange:
            let positions = firstIndexes()
            let indexes = ids.compactMap { positions[$0] }.sorted()
            for id in ids { items[id] = nil }
            return (indexes.isEmpty ? [] : [.updated(indexes)], false)
        default:
            return ([], change.changeType != .noChange)
        }
    }

    /// Forgets everything (no media session).
    mutating func clear() -> [Change] {
        guard !itemIDs.isEmpty || !items.isEmpty else { return [] }
        self = MediaQueueCache(cacheSize: cacheSize, maximumFetchCount: maximumFetchCount)
        return [.reloaded]
    }

    /// The index of each id's first occurrence in ``itemIDs``, built once per message.
    private func firstIndexes() -> [Int: Int] {
        var positions: [Int: Int] = [:]
        positions.reserveCapacity(itemIDs.count)
        for (index, id) in itemIDs.enumerated() where positions[id] == nil { positions[id] = index }
        return positions
    }

    private mutating func touch(_ id: Int) {
        recency.removeAll { $0 == id }
        recency.append(id)
    }

    private mutating func evict() {
        while items.count > cacheSize, let oldest = recency.first {
            recency.removeFirst()
            items[oldest] = nil
        }
    }
}
