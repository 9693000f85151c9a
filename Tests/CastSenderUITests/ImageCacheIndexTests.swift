import Testing

@testable import CastSenderUI

@Suite struct ImageCacheIndexTests {
    @Test func evictsLeastRecentlyUsedFirst() {
        var index = ImageCacheIndex(capacity: 100)
        #expect(index.insert("a", size: 40).isEmpty)
        #expect(index.insert("b", size: 40).isEmpty)
        let touched = index.touch("a")
        #expect(touched)
        #expect(index.insert("c", size: 40) == ["b"])
        #expect(index.keysByUse == ["a", "c"])
        #expect(index.totalSize == 80)
        #expect(index.insert("d", size: 90) == ["a", "c"])
        #expect(index.keysByUse == ["d"])
    }

    @Test func entryLargerThanTheCapacityEvictsItself() {
        var index = ImageCacheIndex(capacity: 10)
        _ = index.insert("small", size: 5)
        #expect(index.insert("huge", size: 11) == ["small", "huge"])
        #expect(index.count == 0 && index.totalSize == 0)
    }

    @Test func replacingAnEntryCountsItsNewSize() {
        var index = ImageCacheIndex(capacity: 100)
        _ = index.insert("a", size: 60)
        #expect(index.insert("a", size: 30).isEmpty)
        #expect(index.totalSize == 30 && index.count == 1)
        let removed = index.remove("a")
        #expect(removed && index.totalSize == 0)
        let again = index.remove("a")
        #expect(!again)
        let missing = index.touch("a")
        #expect(!missing)
    }
}
