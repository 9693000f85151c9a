import Testing

@testable import CastSender

/// The primitive behind every `observe…()` stream: the value now first, then each change.
@Suite struct ObservedValueTests {
    /// Reads `count` values from `stream`.
    private func take<Value>(_ count: Int, from stream: AsyncStream<Value>) async -> [Value] {
        var values: [Value] = []
        for await value in stream {
            values.append(value)
            if values.count == count { break }
        }
        return values
    }

    @Test func aStreamStartsWithTheValueNowThenEachChange() async {
        let observed = ObservedValue(1)
        #expect(observed.update(2))
        let stream = observed.stream()
        #expect(observed.update(3))
        #expect(!observed.update(3), "an equal value is no change")
        #expect(observed.update(4))
        #expect(await take(3, from: stream) == [2, 3, 4])
        #expect(observed.value == 4)
    }

    @Test func aLateSubscriberStillSeesWhereThingsStand() async {
        let observed = ObservedValue("idle")
        observed.update("playing")
        #expect(await take(1, from: observed.stream()) == ["playing"])
    }

    /// `store` keeps the value even when nobody follows it (without comparing), so a later
    /// stream starts with it; with a stream, it yields changes as `update` does.
    @Test func storeKeepsTheValueWithOrWithoutStreams() async {
        let observed = ObservedValue(1)
        observed.store(2)
        observed.store(2)
        #expect(observed.value == 2)
        let stream = observed.stream()
        observed.store(2)
        observed.store(3)
        observed.store(3)
        observed.store(4)
        #expect(await take(3, from: stream) == [2, 3, 4])
        #expect(await take(1, from: observed.stream()) == [4])
    }

    @Test func sameness() async {
        final class Box: Sendable {}
        let first = Box()
        let observed = ObservedValue<Box?>(first, isSame: ===)
        #expect(!observed.update(first))
        #expect(observed.update(Box()))
        #expect(observed.update(nil))
        #expect(!observed.update(nil))
    }

    @Test func finishEndsEveryStreamAndLaterOnesYieldTheLastValue() async {
        let observed = ObservedValue(0)
        let stream = observed.stream()
        observed.update(1)
        observed.finish()
        var seen: [Int] = []
        for await value in stream { seen.append(value) }
        #expect(seen == [0, 1])
        seen = []
        for await value in observed.stream() { seen.append(value) }
        #expect(seen == [1])
    }

    @Test func aSlowReaderKeepsTheNewestChanges() async {
        let observed = ObservedValue(0)
        let stream = observed.stream()
        let last = ObservedValue<Int>.bufferLimit * 3
        for value in 1...last { observed.update(value) }
        var seen: [Int] = []
        for await value in stream {
            seen.append(value)
            if value == last { break }
        }
        #expect(seen.count == ObservedValue<Int>.bufferLimit)
        #expect(seen == Array((last - ObservedValue<Int>.bufferLimit + 1)...last))
    }

    @Test func aStoppedReaderIsForgotten() async {
        let observed = ObservedValue(0)
        let task = Task { await take(1, from: observed.stream()) }
        #expect(await task.value == [0])
        // The stream ended when its reader broke out of the loop and released it, before the
        // task returned.
        #expect(!observed.isObserved)
    }

    @Test func concurrentChangesReachEveryStreamInOneOrder() async {
        let observed = ObservedValue(0)
        let streams = (0..<4).map { _ in observed.stream() }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 1...10 { observed.update(writer * 100 + step) }
                }
            }
        }
        let final = observed.value
        var orders: [[Int]] = []
        for stream in streams {
            var seen: [Int] = []
            for await value in stream {
                seen.append(value)
                if value == final { break }
            }
            orders.append(seen)
        }
        #expect(Set(orders.map { $0 }).count == 1, "every stream saw the same sequence")
        #expect(orders[0].last == final)
    }
}
