import Testing

@testable import CastSender

@Suite struct MediaQueueCacheTests {
    func item(_ id: Int) -> QueueItem { QueueItem(itemID: id, media: MediaInformation(contentID: "m\(id)")) }

    @Test func fetchesMissingItemsInBatches() {
        var cache = MediaQueueCache(cacheSize: 10, maximumFetchCount: 2)
        #expect(cache.setItemIDs([1, 2, 3]) == [.reloaded])
        #expect(cache.item(at: 0) == nil)
        #expect(cache.item(at: 1) == nil)
        #expect(cache.item(at: 2) == nil)
        #expect(cache.takeFetchBatch() == [2, 3])
        #expect(cache.takeFetchBatch().isEmpty)
        #expect(cache.store([item(2), item(3)]) == [.updated([1, 2])])
        #expect(cache.item(at: 1)?.itemID == 2)
        #expect(cache.item(at: 5) == nil)
    }

    @Test func evictsLeastRecentlyUsed() {
        var cache = MediaQueueCache(cacheSize: 2)
        _ = cache.setItemIDs([1, 2, 3])
        _ = cache.store([item(1), item(2)])
        _ = cache.item(at: 0)
        _ = cache.store([item(3)])
        #expect(cache.cachedItemCount == 2)
        #expect(cache.item(at: 0, fetch: false) != nil)
        #expect(cache.item(at: 1, fetch: false) == nil)
    }

    /// The straightforward edits (one lookup and one array edit per id) the cache made before
    /// fuzz-media-client found them quadratic: a device's QUEUE_CHANGE of thousands of ids on
    /// a queue of thousands took seconds. The linear ones must give the same results.
    struct Reference {
        var ids: [Int]

        mutating func insert(_ new: [Int], before: Int?) -> [Int] {
            var position = before.flatMap { ids.firstIndex(of: $0) } ?? ids.count
            var inserted: [Int] = []
            for id in new where !ids.contains(id) {
                ids.insert(id, at: position)
                inserted.append(position)
                position += 1
            }
            return inserted
        }

        mutating func remove(_ gone: [Int]) -> [Int] {
            let indexes = gone.compactMap { ids.firstIndex(of: $0) }.sorted()
            for id in gone { ids.removeAll { $0 == id } }
            return indexes
        }
    }

    @Test func largeChangesWithDuplicatesApplyAsTheStraightforwardEdits() {
        let start = Array(0..<3000) + [7, 7, 2999]
        var cache = MediaQueueCache()
        _ = cache.setItemIDs(start)
        var reference = Reference(ids: start)
        let added = Array(2990..<3010) + [3005, 7, 3009]
        let inserted = reference.insert(added, before: 3)
        #expect(
            cache.apply(QueueChangeMessage(changeType: .insert, itemIDs: added, insertBefore: 3)).changes == [
                .inserted(inserted)
            ]
        )
        #expect(cache.itemIDs == reference.ids)
        let gone = Array(0..<2000) + [5, 7, 3001, 99_999]
        let removed = reference.remove(gone)
        #expect(cache.apply(QueueChangeMessage(changeType: .remove, itemIDs: gone)).changes == [.removed(removed)])
        #expect(cache.itemIDs == reference.ids)
        let updated = [2500, 2500, 3003, 1]
        let indexes = updated.compactMap { reference.ids.firstIndex(of: $0) }.sorted()
        #expect(
            cache.apply(QueueChangeMessage(changeType: .itemsChange, itemIDs: updated)).changes == [
                .updated(indexes)
            ]
        )
    }

    @Test func appliesQueueChanges() {
        var cache = MediaQueueCache()
        _ = cache.setItemIDs([1, 2])
        #expect(
            cache.apply(QueueChangeMessage(changeType: .insert, itemIDs: [5], insertBefore: 2)).changes == [
                .inserted([1])
            ]
        )
        #expect(cache.itemIDs == [1, 5, 2])
        #expect(cache.apply(QueueChangeMessage(changeType: .insert, itemIDs: [6])).changes == [.inserted([3])])
        #expect(cache.apply(QueueChangeMessage(changeType: .remove, itemIDs: [1])).changes == [.removed([0])])
        #expect(cache.itemIDs == [5, 2, 6])
        let reorder = cache.apply(QueueChangeMessage(changeType: .update, reorderItemIDs: [6, 5, 2]))
        #expect(reorder.changes == [.reloaded])
        #expect(cache.itemIDs == [6, 5, 2])
        #expect(cache.apply(QueueChangeMessage(changeType: "SOMETHING_NEW")).needsReload)
    }
}
