import CastCore
import Testing

@testable import CastEmulator

@Suite struct PlaybackQueueTests {
    static func items(_ count: Int) -> [QueueItem] {
        (1...count).map { QueueItem(media: MediaInformation(contentID: "http://m/\($0)")) }
    }

    @Test func assignsItemIDsInOrder() {
        let queue = PlaybackQueue(items: Self.items(3), startIndex: 2, repeatMode: .off, queueData: nil)
        #expect(queue.itemIDs == [1, 2, 3])
        #expect(queue.currentItemID == 3)
        #expect(queue.sequenceNumber == 0)
    }

    @Test(arguments: [
        (RepeatMode.off, 0, -1, nil as Int?),
        (.off, 2, 1, nil),
        (.off, 1, 1, 2),
        (.all, 2, 1, 0),
        (.all, 0, -1, 2),
        (.allAndShuffle, 0, -4, 2),
        (.single, 2, 1, nil),
    ])
    func offsets(mode: RepeatMode, current: Int, offset: Int, expected: Int?) {
        let queue = PlaybackQueue(items: Self.items(3), startIndex: current, repeatMode: mode, queueData: nil)
        #expect(queue.index(offsetBy: offset) == expected)
    }

    @Test func repeatSingleReplaysWhenAnItemEnds() {
        let queue = PlaybackQueue(items: Self.items(3), startIndex: 1, repeatMode: .single, queueData: nil)
        #expect(queue.indexAfterCurrentEnds() == 1)
    }

    @Test func insertKeepsTheCurrentItem() {
        var queue = PlaybackQueue(items: Self.items(3), startIndex: 1, repeatMode: .off, queueData: nil)
        let ids = queue.insert(Self.items(2), before: 1)
        #expect(ids == [4, 5])
        #expect(queue.itemIDs == [4, 5, 1, 2, 3])
        #expect(queue.currentItemID == 2)
        #expect(queue.sequenceNumber == 1)
        _ = queue.insert(Self.items(1), before: nil)
        #expect(queue.itemIDs.last == 6)
    }

    @Test func removeReportsTheItemAfterTheCurrentOne() {
        var queue = PlaybackQueue(items: Self.items(4), startIndex: 1, repeatMode: .off, queueData: nil)
        let result = queue.remove([2, 3, 9])
        #expect(result.removed == [2, 3])
        #expect(result.currentRemoved)
        #expect(result.followingIndex.map { queue.items[$0].itemID } == 4)
        let nothing = queue.remove([9])
        #expect(nothing.removed.isEmpty)
        #expect(queue.sequenceNumber == 1)
        let last = queue.remove([4])
        #expect(last.followingIndex == nil)
    }

    @Test func reorderAndUpdate() {
        var queue = PlaybackQueue(items: Self.items(4), startIndex: 0, repeatMode: .off, queueData: nil)
        queue.reorder([4, 2], before: 1)
        #expect(queue.itemIDs == [4, 2, 1, 3])
        #expect(queue.currentItemID == 1)
        let changed = queue.update([QueueItem(itemID: 3, autoplay: false), QueueItem(itemID: 99)])
        #expect(changed == [3])
        #expect(queue.item(withID: 3)?.autoplay == false)
        #expect(queue.item(withID: 3)?.media?.contentID == "http://m/3")
    }

    @Test func shuffleKeepsEveryItemAndTheCurrentFirst() {
        var queue = PlaybackQueue(items: Self.items(10), startIndex: 4, repeatMode: .off, queueData: nil)
        var generator = IdentifierGenerator(seed: 1)
        queue.shuffle(using: &generator)
        #expect(queue.itemIDs.first == 5)
        #expect(queue.currentIndex == 0)
        #expect(Set(queue.itemIDs) == Set(1...10))
        let start = queue.reshuffleForNewRound(using: &generator)
        #expect(start == 0)
        #expect(queue.items[0].itemID != 5)
        #expect(Set(queue.itemIDs) == Set(1...10))
    }

    @Test func statusWindowIsThePreviousCurrentAndNextItem() {
        let middle = PlaybackQueue(items: Self.items(5), startIndex: 2, repeatMode: .off, queueData: nil)
        #expect(middle.statusWindow.compactMap(\.itemID) == [2, 3, 4])
        let first = PlaybackQueue(items: Self.items(5), startIndex: 0, repeatMode: .off, queueData: nil)
        #expect(first.statusWindow.compactMap(\.itemID) == [1, 2])
        let single = PlaybackQueue(items: Self.items(1), startIndex: 0, repeatMode: .off, queueData: nil)
        #expect(single.statusWindow.compactMap(\.itemID) == [1])
    }
}
