import CastNetEmbedded
import CastSync
import CastTestSupport
import CastTime
import Testing

/// The embedded loop runs work only when told, timers only as its manual clock moves, in
/// deadline order with the work each timer queues before the next one.
@Suite struct EmbeddedLoopTests {
    /// Appends `entry` to a shared log from any closure.
    final class Log: Sendable {
        private let entries = Locked<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func workWaitsForRunAndRunsInOrderWithWhatItQueues() {
        let loop = EmbeddedLoop()
        let log = Log()
        loop.execute {
            log.append("first")
            loop.execute { log.append("queued by first") }
        }
        loop.execute { log.append("second") }
        #expect(log.all.isEmpty)
        #expect(loop.queuedWorkCount == 2)
        #expect(loop.run() == 3)
        #expect(log.all == ["first", "second", "queued by first"])
        #expect(loop.queuedWorkCount == 0)
        #expect(loop.run() == 0)
    }

    @Test func onlyOneCallerRunsTheLoopAtATime() {
        let loop = EmbeddedLoop()
        let nested = Locked<Int?>(nil)
        let inLoop = Locked<Bool?>(nil)
        loop.execute {
            inLoop.withLock { $0 = loop.inLoop }
            loop.execute {}
            // The outer run takes the work queued here; a nested run finds the loop taken.
            nested.withLock { $0 = loop.run() }
        }
        #expect(!loop.inLoop)
        #expect(loop.run() == 2)
        #expect(nested.withLock { $0 } == 0)
        #expect(inLoop.withLock { $0 } == true)
    }

    @Test func advancingFiresTimersInDeadlineOrderWithTheirWorkBetween() {
        let loop = EmbeddedLoop()
        let clock = loop.clock
        let log = Log()
        clock.schedule(after: .seconds(3)) { log.append("timer at 3 s") }
        clock.schedule(after: .seconds(1)) {
            log.append("timer at 1 s")
            loop.execute { log.append("work of the 1 s timer at \(clock.now)") }
        }
        clock.schedule(after: .seconds(5)) { log.append("timer at 5 s") }
        loop.advance(by: .seconds(4))
        #expect(log.all == ["timer at 1 s", "work of the 1 s timer at 1.0 seconds", "timer at 3 s"])
        #expect(clock.now == CastInstant(offset: .seconds(4)))
        #expect(clock.scheduledTimerCount == 1)
        loop.advance(by: .seconds(1))
        #expect(log.all.last == "timer at 5 s")
    }

    @Test func advancingWithNoTimerRunsQueuedWorkAndMovesTheClock() {
        let loop = EmbeddedLoop()
        let log = Log()
        loop.execute { log.append("work") }
        loop.advance(by: .milliseconds(250))
        #expect(log.all == ["work"])
        #expect(loop.clock.now == CastInstant(offset: .milliseconds(250)))
    }

    @Test func runWhileKeepsRunningTheWorkAnOperationWaitsFor() async throws {
        let loop = EmbeddedLoop()
        // Each step of the operation waits for work of the loop, queued from another task.
        let answer = try await withDeadline(TestTiming.hangGuard, "the operation") {
            try await loop.run {
                var total = 0
                for step in 1...3 {
                    total += await withCheckedContinuation { continuation in
                        loop.execute { continuation.resume(returning: step) }
                    }
                }
                return total
            }
        }
        #expect(answer == 6)
        #expect(loop.queuedWorkCount == 0)
    }

    @Test func runUntilStopsOnceTheConditionHolds() async throws {
        let loop = EmbeddedLoop()
        let count = Locked(0)
        for _ in 0..<3 { loop.execute { count.withLock { $0 += 1 } } }
        try await withDeadline(TestTiming.hangGuard, "three increments") {
            try await loop.run(until: { count.withLock { $0 } == 3 })
        }
        #expect(count.withLock { $0 } == 3)
    }
}
