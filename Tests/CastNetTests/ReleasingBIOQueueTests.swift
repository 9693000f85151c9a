import Testing

@testable import CastNet

/// The byte queue behind the TLS engine's BIOs, in memory: order, growth, reuse of the
/// room already read, and its storage freed whenever it empties.
struct ReleasingBIOQueueTests {
    private func append(_ bytes: [UInt8], to queue: inout ReleasingBIO.Queue) {
        bytes.withUnsafeBytes { queue.append($0.baseAddress!, count: $0.count) }
    }

    private func take(_ count: Int, from queue: inout ReleasingBIO.Queue) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let taken = out.withUnsafeMutableBytes { queue.take(into: $0.baseAddress!, count: count) }
        return Array(out[..<taken])
    }

    @Test func bytesComeOutInTheOrderTheyWentIn() {
        var queue = ReleasingBIO.Queue()
        append([1, 2, 3], to: &queue)
        append([4, 5], to: &queue)
        #expect(queue.count == 5)
        #expect(take(2, from: &queue) == [1, 2])
        append([6, 7, 8, 9], to: &queue)
        #expect(take(100, from: &queue) == [3, 4, 5, 6, 7, 8, 9])
        #expect(queue.count == 0)
        queue.release()
    }

    @Test func emptyingTheQueueFreesItsStorage() {
        var queue = ReleasingBIO.Queue()
        #expect(queue.capacity == 0)
        append(Array(repeating: 7, count: 2_000), to: &queue)
        #expect(queue.capacity >= 2_000)
        _ = take(1_999, from: &queue)
        #expect(queue.capacity >= 2_000)
        #expect(take(10, from: &queue) == [7])
        #expect(queue.capacity == 0)
        #expect(queue.storage == nil)
    }

    @Test func theRoomAlreadyReadIsReusedBeforeGrowing() {
        var queue = ReleasingBIO.Queue()
        append(Array(0..<100), to: &queue)
        let capacity = queue.capacity
        #expect(take(90, from: &queue) == Array(0..<90))
        append(Array(100..<180), to: &queue)
        #expect(queue.capacity == capacity)
        #expect(take(200, from: &queue) == Array(90..<180))
    }

    @Test func growingKeepsTheUnreadBytes() {
        var queue = ReleasingBIO.Queue()
        append(Array(0..<10), to: &queue)
        #expect(take(4, from: &queue) == [0, 1, 2, 3])
        let large = (0..<5_000).map { UInt8(truncatingIfNeeded: $0) }
        append(large, to: &queue)
        #expect(queue.count == 6 + large.count)
        #expect(take(6, from: &queue) == [4, 5, 6, 7, 8, 9])
        #expect(take(large.count, from: &queue) == large)
        #expect(queue.storage == nil)
    }
}
