/// Waits until `condition` holds of state that no event reports to the test (a socket's row
/// in the kernel's `/proc/net/tcp`, a hang-up on a descriptor another party holds, a count
/// inside a device under test seen from outside over real sockets), checking it every few
/// milliseconds, for at most `timeout` (times ``TestTiming/slowdown``).
///
/// The one polling wait of the real-socket tests: everything a test or the code under test
/// can announce (a connection closed, a count reached, a line written) is awaited through a
/// ``ChangeSignal`` instead.
/// - Throws: ``DeadlineExceeded`` when `condition` does not hold in time.
package func pollUntil(
    _ what: String,
    within timeout: Duration = TestTiming.patience,
    _ condition: @escaping @Sendable () -> Bool
) async throws {
    try await withDeadline(timeout, what) {
        // Sleeping: nothing notifies these states, and a loop without a pause would take a
        // core of the two from the rest of the suite.
        while !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }
}
