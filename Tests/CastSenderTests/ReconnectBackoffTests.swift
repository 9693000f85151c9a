import Testing

@testable import CastSender

@Suite struct ReconnectBackoffTests {
    @Test(arguments: [(0, 500), (1, 1000), (2, 2000), (3, 4000), (6, 15000), (40, 15000)])
    func exponentialWithoutJitter(attempt: Int, milliseconds: Int64) {
        let backoff = ReconnectBackoff(jitter: 0)
        #expect(backoff.delay(forAttempt: attempt, random: 0.7) == .milliseconds(milliseconds))
    }

    @Test func jitterSpreadsAroundTheBase() {
        let backoff = ReconnectBackoff(initialDelay: .seconds(1), jitter: 0.5)
        #expect(backoff.delay(forAttempt: 0, random: 0) == .milliseconds(500))
        #expect(backoff.delay(forAttempt: 0, random: 0.5) == .milliseconds(1000))
        #expect(backoff.delay(forAttempt: 0, random: 0.999_999) == .milliseconds(1500))
    }
}
