import Testing

@testable import CastSender

@Suite struct MediaQueueCacheTests {
    func item(_ id: Int) -> QueueItem { QueueItem(itemId: id, media: MediaInformation(contentId: "m\(id)")) }

    @Test func fetchesMissingItemsInBatches() {
        var cache = MediaQueueCache(cacheSize: 10, maximumFetchCount: 2)
        #expect(cache.setItemIDs([1, 2, 3]) == [.reloaded])
        #expect(cache.item(at: 0) == nil)
        #expect(cache.item(at: 1) == nil)
        #expect(cache.item(at: 2) == nil)
        #expect(cache.takeFetchBatch() == [2, 3])
        #expect(cache.takeFetchBatch().isEmpty)
        #expect(cache.store([item(2), item(3)]) == [.updated([1, 2])])
        #expect(cache.item(at: 1)?.itemId == 2)
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

    @Test func appliesQueueChanges() {
        var cache = MediaQueueCache()
        _ = cache.setItemIDs([1, 2])
        #expect(
            cache.apply(QueueChangeMessage(changeType: .insert, itemIds: [5], insertBefore: 2)).changes == [
                .inserted([1])
            ]
        )
        #expect(cache.itemIDs == [1, 5, 2])
        #expect(cache.apply(QueueChangeMessage(changeType: .insert, itemIds: [6])).changes == [.inserted([3])])
        #expect(cache.apply(QueueChangeMessage(changeType: .remove, itemIds: [1])).changes == [.removed([0])])
        #expect(cache.itemIDs == [5, 2, 6])
        let reorder = cache.apply(QueueChangeMessage(changeType: .update, reorderItemIds: [6, 5, 2]))
        #expect(reorder.changes == [.reloaded])
        #expect(cache.itemIDs == [6, 5, 2])
        #expect(cache.apply(QueueChangeMessage(changeType: "SOMETHING_NEW")).needsReload)
    }
}
