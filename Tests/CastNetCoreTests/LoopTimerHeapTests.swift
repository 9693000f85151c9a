import CastSync
import CastTestSupport
import Testing

@testable import CastNetCore

@Suite struct LoopTimerHeapTests {
    /// Records which timers ran, in order.
    private final class Log: Sendable {
        let fired = Locked<[Int]>([])

        var snapshot: [Int] { fired.withLock { $0 } }

        func action(_ value: Int) -> @Sendable () -> Void {
            { self.fired.withLock { $0.append(value) } }
        }
    }

    private func runAll(_ due: [@Sendable () -> Void]) {
        for action in due { action() }
    }

    @Test func dueTimersComeOutInDeadlineOrderThenSchedulingOrder() {
        var heap = LoopTimerHeap()
        let log = Log()
        _ = heap.insert(deadline: 30, log.action(30))
        _ = heap.insert(deadline: 10, log.action(10))
        _ = heap.insert(deadline: 20, log.action(20))
        _ = heap.insert(deadline: 10, log.action(11))
        #expect(heap.count == 4)
        let earliest = heap.earliestDeadline()
        #expect(earliest == 10)
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: 20, into: &due)
        runAll(due)
        #expect(log.snapshot == [10, 11, 20])
        #expect(heap.count == 1)
        let next = heap.earliestDeadline()
        #expect(next == 30)
    }

    @Test func nothingIsDueBeforeItsDeadline() {
        var heap = LoopTimerHeap()
        _ = heap.insert(deadline: 100) {}
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: 99, into: &due)
        #expect(due.isEmpty)
        heap.popDue(now: 100, into: &due)
        #expect(due.count == 1)
        let earliest = heap.earliestDeadline()
        #expect(earliest == nil)
    }

    @Test func cancelledTimersNeverFireAndCancellingTwiceIsHarmless() {
        var heap = LoopTimerHeap()
        let log = Log()
        let first = heap.insert(deadline: 5, log.action(5))
        _ = heap.insert(deadline: 7, log.action(7))
        let cancelled = heap.cancel(first)
        let cancelledAgain = heap.cancel(first)
        #expect(cancelled)
        #expect(!cancelledAgain)
        #expect(heap.count == 1)
        let earliest = heap.earliestDeadline()
        #expect(earliest == 7)
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: 10, into: &due)
        runAll(due)
        #expect(log.snapshot == [7])
        let cancelledAfterFiring = heap.cancel(first)
        #expect(!cancelledAfterFiring)
    }

    /// The loop sleeps until the earliest timer's deadline plus its slack; the timer is due
    /// (may run) from its deadline on.
    @Test func slackDelaysTheLatestTimeNotTheDeadline() {
        var heap = LoopTimerHeap()
        _ = heap.insert(deadline: 1_000, slack: 10) {}
        let latest = heap.earliestLatest()
        let deadline = heap.earliestDeadline()
        #expect(latest == 1_010)
        #expect(deadline == 1_000)
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: 999, into: &due)
        #expect(due.isEmpty)
        heap.popDue(now: 1_000, into: &due)
        #expect(due.count == 1)
    }

    /// A timer without slack due inside an earlier timer's slack sets the wake-up time, and
    /// stops doing so once it has fired or been cancelled.
    @Test func aTimerWithoutSlackIsNotDelayedByAnEarlierTimersSlack() {
        var heap = LoopTimerHeap()
        let log = Log()
        _ = heap.insert(deadline: 1_000, slack: 10, log.action(1))
        let exact = heap.insert(deadline: 1_004, log.action(2))
        let first = heap.earliestLatest()
        #expect(first == 1_004)
        let cancelled = heap.cancel(exact)
        #expect(cancelled)
        let afterCancel = heap.earliestLatest()
        #expect(afterCancel == 1_010)
        _ = heap.insert(deadline: 1_006, log.action(3))
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: 1_006, into: &due)
        runAll(due)
        #expect(log.snapshot == [1, 3])
        let empty = heap.earliestLatest()
        #expect(empty == nil)
    }

    @Test func slackNearTheEndOfTimeSaturates() {
        var heap = LoopTimerHeap()
        _ = heap.insert(deadline: .max - 1, slack: 10) {}
        let latest = heap.earliestLatest()
        #expect(latest == .max)
    }

    /// Many timers, most cancelled (which compacts the heap several times): the live ones
    /// still come out complete and in order.
    @Test(arguments: [1 as UInt64, 2, 3])
    func randomTimersWithMostCancelledStayOrdered(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = LoopTimerHeap()
        let log = Log()
        var live: [(deadline: UInt64, value: Int)] = []
        for value in 0..<2_000 {
            let deadline = random.next() % 500
            let id = heap.insert(deadline: deadline, log.action(value))
            if random.next() % 4 == 0 {
                live.append((deadline, value))
            } else {
                let cancelled = heap.cancel(id)
                #expect(cancelled)
            }
        }
        #expect(heap.count == live.count)
        var due: [@Sendable () -> Void] = []
        heap.popDue(now: .max, into: &due)
        runAll(due)
        let expected = live.sorted { $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.value < $1.value }
        #expect(log.snapshot == expected.map(\.value))
        #expect(heap.count == 0)
    }
}
