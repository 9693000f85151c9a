import CCastSystem
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Notifies `signal` when the process exits, after the termination handler it had.
    ///
    /// Foundation marks the process as no longer running before it calls the handler, so a
    /// waiter that checks ``Process/isRunning`` after each notification cannot miss the exit,
    /// even when the process ended before this call.
    package func notifyOnExit(_ signal: ChangeSignal) {
        let previous = terminationHandler
        terminationHandler = { process in
            previous?(process)
            signal.notify()
        }
        signal.notify()
    }

    /// Waits until the process has exited, for at most `timeout` (times
    /// ``TestTiming/slowdown``), woken by the exit itself rather than by polling.
    /// - Returns: whether it exited in time.
    package func waitForExit(within timeout: Duration) async -> Bool {
        let exited = ChangeSignal()
        notifyOnExit(exited)
        let name = executableURL?.lastPathComponent ?? "a child"
        try? await exited.wait(until: "the exit of \(name)", within: timeout) { [self] in !isRunning }
        return !isRunning
    }
}

/// Waits for the child `pid` (started with `posix_spawn`) to exit and reaps it, killing it
/// with SIGKILL once `deadline` (times ``TestTiming/slowdown``) has passed.
///
/// The wait blocks a thread of its own, not one of the cooperative pool that every test
/// shares, and returns when the child exits: no polling. The child is reaped only after the
/// deadline's kill can no longer reach it, so a number the kernel hands to a new process is
/// never signalled.
/// - Returns: the raw `waitpid` status, and whether the deadline killed the child.
package func awaitChildExit(_ pid: Int32, deadline: Duration) async -> (status: Int32, killed: Bool) {
    // Set under the lock when the child has exited (not yet reaped) or been killed.
    let state = Mutex<(exited: Bool, killed: Bool)>((false, false))
    let timer = DispatchWorkItem {
        state.withLock { state in
            guard !state.exited else { return }
            state.killed = true
            kill(pid, SIGKILL)
        }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + TestTiming.scaled(deadline.seconds), execute: timer)
    let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
        let waiter = Thread {
            // Waits for the exit without reaping, so the number stays the child's meanwhile.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            // The deadline's work item, when it runs later, finds the exit and does nothing.
            state.withLock { $0.exited = true }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            continuation.resume(returning: status)
        }
        waiter.start()
    }
    return (status, state.withLock { $0.killed })
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
