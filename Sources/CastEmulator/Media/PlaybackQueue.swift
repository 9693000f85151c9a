import CastCore

/// The items of a media session, the current one, and how the queue repeats.
///
/// Every item has an `itemId` the queue assigned. A single `LOAD` without `queueData` makes
/// a queue of one item, as Cast receivers do.
struct PlaybackQueue: Sendable {
    /// The items in play order; never empty while the queue exists.
    private(set) var items: [QueueItem]
    /// The index of the current item in ``items``.
    private(set) var currentIndex: Int
    /// How the queue repeats.
    var repeatMode: RepeatMode
    /// The description of the queue (its `queueData` without the items), when given.
    var queueData: QueueData?
    /// Increases with every change of the items.
    private(set) var sequenceNumber: Int
    private var nextItemID: Int

    /// Creates a queue; `items` must not be empty and `startIndex` must be a valid index.
    init(items: [QueueItem], startIndex: Int, repeatMode: RepeatMode, queueData: QueueData?, firstItemID: Int = 1) {
        precondition(!items.isEmpty && items.indices.contains(startIndex), "a queue starts with a valid item")
        var nextItemID = firstItemID
        self.items = items.map { item in
            var item = item
            item.itemID = nextItemID
            nextItemID += 1
            return item
        }
        self.currentIndex = startIndex
        self.repeatMode = repeatMode
        self.queueData = queueData
        self.sequenceNumber = 0
        self.nextItemID = nextItemID
    }

    var currentItem: QueueItem { items[currentIndex] }
    var currentItemID: Int { items[currentIndex].itemID ?? 0 }
    var itemIDs: [Int] { items.compactMap(\.itemID) }

    func index(ofItem itemID: Int) -> Int? {
        items.firstIndex { $0.itemID == itemID }
    }

    func item(withID itemID: Int) -> QueueItem? {
        index(ofItem: itemID).map { items[$0] }
    }

    /// Whether the queue wraps around at its ends.
    var wraps: Bool { repeatMode == .all || repeatMode == .allAndShuffle }

    /// The index `offset` items away from the current one, wrapping when the repeat mode
    /// does, or `nil` past an end.
    func index(offsetBy offset: Int) -> Int? {
        let target = currentIndex + offset
        if items.indices.contains(target) { return target }
        guard wraps else { return nil }
        let count = items.count
        return ((target % count) + count) % count
    }

    /// The item that plays when the current one ends by itself.
    func indexAfterCurrentEnds() -> Int? {
        repeatMode == .single ? currentIndex : index(offsetBy: 1)
    }

    // MARK: Changes

    mutating func setCurrent(index: Int) {
        precondition(items.indices.contains(index), "the current item exists")
        currentIndex = index
    }

    /// Inserts items before the item `insertBefore` (at the end when `nil`) and returns
    /// their new ids.
    mutating func insert(_ newItems: [QueueItem], before insertBefore: Int?) -> [Int] {
        let currentID = currentItemID
        let position = insertBefore.flatMap { index(ofItem: $0) } ?? items.count
        var assigned: [QueueItem] = []
        for var item in newItems {
            item.itemID = nextItemID
            nextItemID += 1
            assigned.append(item)
        }
        items.insert(contentsOf: assigned, at: position)
        currentIndex = index(ofItem: currentID) ?? currentIndex
        sequenceNumber += 1
        return assigned.compactMap(\.itemID)
    }

    /// Removes items; returns the ids removed and, when the current item was among them,
    /// the index of the item that followed it (or `nil` when none is left after it).
    mutating func remove(_ itemIDs: [Int]) -> (removed: [Int], currentRemoved: Bool, followingIndex: Int?) {
        let removedSet = Set(itemIDs).intersection(self.itemIDs)
        guard !removedSet.isEmpty else { return ([], false, nil) }
        let currentID = currentItemID
        let currentRemoved = removedSet.contains(currentID)
        let followingID = items[currentIndex...].first { !removedSet.contains($0.itemID ?? 0) }?.itemID
        let removed = self.itemIDs.filter { removedSet.contains($0) }
        items.removeAll { removedSet.contains($0.itemID ?? 0) }
        sequenceNumber += 1
        if currentRemoved {
            currentIndex = 0
            return (removed, true, followingID.flatMap { index(ofItem: $0) })
        }
        currentIndex = index(ofItem: currentID) ?? 0
        return (removed, false, nil)
    }

    var isEmpty: Bool { items.isEmpty }

    /// Moves `itemIds`, in that order, before `insertBefore` (to the end when `nil`).
    mutating func reorder(_ itemIDs: [Int], before insertBefore: Int?) {
        let currentID = currentItemID
        let moving = itemIDs.compactMap { item(withID: $0) }
        let movingSet = Set(itemIDs)
        items.removeAll { movingSet.contains($0.itemID ?? 0) }
        let position = insertBefore.flatMap { index(ofItem: $0) } ?? items.count
        items.insert(contentsOf: moving, at: position)
        currentIndex = index(ofItem: currentID) ?? 0
        sequenceNumber += 1
    }

    /// Replaces the items with the same ids as `updated`; returns the ids replaced.
    mutating func update(_ updated: [QueueItem]) -> [Int] {
        var changed: [Int] = []
        for var item in updated {
            guard let itemID = item.itemID, let index = index(ofItem: itemID) else { continue }
            if item.media == nil { item.media = items[index].media }
            items[index] = item
            changed.append(itemID)
        }
        if !changed.isEmpty { sequenceNumber += 1 }
        return changed
    }

    /// Shuffles the items, keeping the current one first.
    mutating func shuffle(using generator: inout some RandomNumberGenerator) {
        let current = items[currentIndex]
        var others = items
        others.remove(at: currentIndex)
        others.shuffle(using: &generator)
        items = [current] + others
        currentIndex = 0
        sequenceNumber += 1
    }

    /// Shuffles every item for a new round of `REPEAT_ALL_AND_SHUFFLE` and returns the index
    /// that plays first: never the item that just played, when there is another.
    mutating func reshuffleForNewRound(using generator: inout some RandomNumberGenerator) -> Int {
        let lastPlayed = currentItemID
        items.shuffle(using: &generator)
        if items.count > 1, items[0].itemID == lastPlayed {
            items.swapAt(0, 1)
        }
        currentIndex = index(ofItem: lastPlayed) ?? 0
        sequenceNumber += 1
        return 0
    }

    /// The items around the current one that `MEDIA_STATUS` lists for a queue of several
    /// items: the previous, the current and the next.
    var statusWindow: [QueueItem] {
        let lower = max(0, currentIndex - 1)
        let upper = min(items.count - 1, currentIndex + 1)
        return Array(items[lower...upper])
    }
}
