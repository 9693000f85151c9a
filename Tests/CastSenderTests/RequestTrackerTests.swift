import CastNet
import CastTime
import Testing

@testable import CastSender

@Suite struct RequestTrackerTests {
    let start = CastInstant(offset: .zero)

    @Test func idsAreUniqueAndPositive() {
        var tracker = RequestTracker()
        var seen = Set<Int>()
        for _ in 0..<100 {
            let id = tracker.begin(deadline: start).id
            #expect(id > 0)
            #expect(seen.insert(id).inserted)
        }
        #expect(tracker.count == 100)
    }

    @Test func idsWrapAndSkipPendingOnes() {
        var tracker = RequestTracker(firstID: Int(Int32.max))
        let first = tracker.begin(deadline: start).id
        #expect(first == Int(Int32.max))
        let second = tracker.begin(deadline: start).id
        #expect(second == 1)
        var skipping = RequestTracker(firstID: 1)
        _ = skipping.begin(deadline: start)
        _ = skipping.settle(1)
        #expect(skipping.begin(deadline: start).id == 2)
    }

    @Test func eachRequestSettlesExactlyOnce() {
        var tracker = RequestTracker()
        let id = tracker.begin(deadline: start.advanced(by: .seconds(10))).id
        #expect(tracker.settle(id)?.id == id)
        #expect(tracker.settle(id) == nil)
        #expect(tracker.cancel(id) == nil)
        #expect(tracker.expire(now: start.advanced(by: .seconds(20))).isEmpty)
        #expect(tracker.drain().isEmpty)
    }

    @Test func timeoutsExpireOnlyDueRequestsOldestFirst() {
        var tracker = RequestTracker()
        let a = tracker.begin(deadline: start.advanced(by: .seconds(5))).id
        let b = tracker.begin(deadline: start.advanced(by: .seconds(3))).id
        let c = tracker.begin(deadline: start.advanced(by: .seconds(30))).id
        #expect(tracker.nextDeadline == start.advanced(by: .seconds(3)))
        let expired = tracker.expire(now: start.advanced(by: .seconds(5)))
        #expect(expired.map(\.id) == [a, b])
        #expect(tracker.isPending(c))
        #expect(tracker.settle(a) == nil)
    }

    @Test func connectionDropDrainsEverything() {
        var tracker = RequestTracker()
        let ids = (0..<3).map { _ in tracker.begin(deadline: start).id }
        #expect(tracker.drain().map(\.id) == ids)
        #expect(tracker.count == 0)
    }

    @Test func sameGroupReplacesEarlierRequest() {
        var tracker = RequestTracker()
        let first = tracker.begin(replacementGroup: "seek", deadline: start).id
        let other = tracker.begin(replacementGroup: "load", deadline: start).id
        let (second, replaced) = tracker.begin(replacementGroup: "seek", deadline: start)
        #expect(replaced.map(\.id) == [first])
        #expect(tracker.isPending(second))
        #expect(tracker.isPending(other))
        #expect(!tracker.isPending(first))
    }
}
