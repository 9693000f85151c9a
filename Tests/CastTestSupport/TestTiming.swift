import Foundation

/// How much slower than usual the tests run, for the deadlines of tests that wait on other
/// processes, real sockets or real time.
///
/// A sanitizer run (`scripts/sanitizers.sh`) is several times slower than a normal one and
/// sets `CAST_TEST_SLOWDOWN`; deadlines and the timeouts of test servers are multiplied by it.
/// Nothing is asserted about durations: the factor only keeps a slow run from running out
/// of time.
package enum TestTiming {
    /// `CAST_TEST_SLOWDOWN` when it is a number of at least 1, else 1.
    package static let slowdown: Double = {
        guard let text = ProcessInfo.processInfo.environment["CAST_TEST_SLOWDOWN"],
            let value = Double(text), value.isFinite, value >= 1
        else { return 1 }
        return value
    }()

    /// How long a test waits for something that should happen promptly when the wait is not
    /// what it checks (a reply, a served request, a download): a hang guard, not a timing
    /// claim. The whole suite runs about a thousand tests at once on two cores, so a healthy
    /// exchange can be held up for many seconds; sixty, times ``slowdown``.
    package static var patience: Duration { scaled(.seconds(60)) }

    /// How long a test in memory (on an embedded loop) waits for an event before it gives up:
    /// a guard against a hang, never reached by a passing test. Such a test depends on no
    /// scheduling or load: the events it awaits are caused by the loop's work and the clock
    /// it advances itself, and arrive in milliseconds.
    package static var hangGuard: Duration { .seconds(60) }

    /// `duration` multiplied by ``slowdown``.
    package static func scaled(_ duration: Duration) -> Duration {
        duration * slowdown
    }

    /// `seconds` multiplied by ``slowdown``.
    package static func scaled(_ seconds: Double) -> Double {
        seconds * slowdown
    }
}
