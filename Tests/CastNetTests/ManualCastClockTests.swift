import CastNet
import CastSync
import CastTime
import Testing

@Suite struct ManualCastClockTests {
    final class Log: Sendable {
        private let entries = Locked<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func firesDueTimersInDeadlineOrderWithTimeSetToEachDeadline() {
        let clock = ManualCastClock()
        let log = Log()
        clock.schedule(after: .seconds(3)) { log.add("c@\(clock.now)") }
        clock.schedule(after: .seconds(1)) { log.add("a@\(clock.now)") }
        clock.schedule(after: .seconds(1)) { log.add("b@\(clock.now)") }
        clock.advance(by: .milliseconds(999))
        #expect(log.all.isEmpty)
        clock.advance(by: .seconds(5))
        #expect(log.all == ["a@1.0 seconds", "b@1.0 seconds", "c@3.0 seconds"])
        #expect(clock.now == CastInstant(offset: .milliseconds(5999)))
        #expect(clock.scheduledTimerCount == 0)
    }

    @Test func cancelledTimerNeverFires() {
        let clock = ManualCastClock()
        let log = Log()
        let timer = clock.schedule(after: .seconds(1)) { log.add("fired") }
        timer.cancel()
        clock.advance(by: .seconds(2))
        #expect(log.all.isEmpty)
    }

    @Test func timerScheduledByATimerFiresInTheSameAdvanceWhenDue() {
        let clock = ManualCastClock()
        let log = Log()
        clock.schedule(after: .seconds(1)) {
            log.add("first")
            clock.schedule(after: .seconds(1)) { log.add("second") }
        }
        clock.advance(by: .seconds(2))
        #expect(log.all == ["first", "second"])
    }

    @Test func sleepResumesWhenTimeReachesItsDeadline() async throws {
        let clock = ManualCastClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        await clock.waitForScheduledTimers(count: 1)
        clock.advance(by: .seconds(30))
        try await sleeper.value
    }

    @Test func cancelledSleepThrowsAndRemovesItsTimer() async {
        let clock = ManualCastClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        await clock.waitForScheduledTimers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.scheduledTimerCount == 0)
    }

    @Test func waitsOnlyForTimersDueWithinTheGivenTime() async {
        let clock = ManualCastClock()
        clock.schedule(after: .seconds(60)) {}
        let waiter = Task { await clock.waitForScheduledTimers(count: 1, dueWithin: .seconds(5)) }
        clock.schedule(after: .seconds(5)) {}
        await waiter.value
        #expect(clock.scheduledTimerCount == 2)
    }

    @Test func systemClockRunsAndCancelsTimers() async throws {
        let clock = SystemCastClock()
        let log = Log()
        let start = clock.now
        // Deadlines far apart from the calls, so a loaded machine pausing this test between
        // two lines cannot let the cancelled timer fire first.
        let cancelled = clock.schedule(after: .seconds(2)) { log.add("cancelled") }
        cancelled.cancel()
        try await clock.sleep(for: .seconds(3))
        #expect(clock.now.offset - start.offset >= .seconds(3))
        #expect(log.all.isEmpty)
    }
}
