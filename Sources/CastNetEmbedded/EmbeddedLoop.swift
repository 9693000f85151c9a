import CastNetCore
import CastSync
package import CastTime

/// A ``ChannelLoop`` that runs nothing by itself: work handed to it waits until a test calls
/// ``run()``, and timers fire only when the test moves its ``ManualCastClock`` with
/// ``advance(by:)``.
///
/// Channels in memory (``EmbeddedByteChannel``) and everything driven through them (a Cast
/// connection, an HTTP server connection, the SDK against a virtual device) then run one step
/// at a time, in an order the test chooses, without sockets, threads or real time: nothing
/// depends on how the scheduler interleaves threads, so a test on this loop cannot flake.
///
/// Work runs on the thread that calls ``run()``, one item after the other. Only one caller
/// runs the loop at a time: a second caller finds it running and leaves the work to the first.
/// While an asynchronous operation (an SDK call awaiting the device's reply) goes on,
/// ``run(while:)`` keeps running the work it causes as it is queued.
///
/// ```swift
/// let loop = EmbeddedLoop()
/// let (client, server) = EmbeddedByteChannel.pair(loop: loop)
/// client.write([1, 2, 3])
/// loop.run()                      // the server's handler reads the three bytes
/// loop.advance(by: .seconds(10))  // timers due in those ten seconds fire, in order
/// ```
package final class EmbeddedLoop: ChannelLoop {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var running = false
        /// The ``run(while:)`` calls waiting for work or for their operation to end.
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Counts the wake-ups that are not new work (an operation ended, a cancellation).
        var wakeups: UInt64 = 0
    }

    /// The clock whose timers the loop fires as the test advances it. Hand the same clock to
    /// the code under test, so its timeouts fall due only when the test says.
    package let clock: ManualCastClock
    private let state = Locked(State())

    /// Creates a loop on `clock`.
    package init(clock: ManualCastClock = ManualCastClock()) {
        self.clock = clock
    }

    /// Queues `work`; it runs at the next ``run()`` (or at once, when a ``run(while:)`` is
    /// waiting for work).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.work.append(work)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Runs `action` as work of the loop once the clock has moved `delay` forward, unless the
    /// returned timer is cancelled first: the loop's own timers, as an epoll loop's.
    @discardableResult
    package func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        clock.schedule(after: delay) { [weak self] in self?.execute(action) }
    }

    /// Whether work is running now. An embedded loop has no thread of its own, so this is
    /// `true` for every caller while the loop runs work, and `false` otherwise.
    public var inLoop: Bool { state.withLock { $0.running } }

    /// The number of work items queued and not yet run.
    package var queuedWorkCount: Int { state.withLock { $0.work.count } }

    /// Runs the queued work, and the work that work queues, until none is left.
    /// - Returns: how many items ran; 0 when another caller is running the loop (it runs
    ///   what is queued).
    @discardableResult
    package func run() -> Int {
        let claimed = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard claimed else { return 0 }
        var count = 0
        while true {
            // Taking an empty queue and leaving the running state is one step, so work queued
            // by another thread is either taken here or left for the next run.
            let batch = state.withLock { state -> [@Sendable () -> Void] in
                if state.work.isEmpty { state.running = false }
                defer { state.work = [] }
                return state.work
            }
            if batch.isEmpty { return count }
            for item in batch { item() }
            count += batch.count
        }
    }

    /// Moves the clock forward by `duration`: runs the queued work, then each timer that
    /// falls due, in deadline order, with the work it queues run before the next timer.
    package func advance(by duration: Duration) {
        advance(to: clock.now.advanced(by: duration))
    }

    /// Moves the clock forward to `instant`, as ``advance(by:)``.
    package func advance(to instant: CastInstant) {
        run()
        while let next = clock.nextDeadline, next <= instant {
            clock.advance(to: next)
            run()
        }
        clock.advance(to: instant)
        run()
    }

    /// Runs `operation` and, until it returns, the work it causes, as it is queued: how a
    /// test awaits an asynchronous call (an SDK request answered by a device in memory) whose
    /// progress depends on the loop. Time does not move: a call that waits for a timeout
    /// needs the test to advance the clock from another task.
    ///
    /// Cancelling the calling task (a hang guard running out) stops the loop and cancels the
    /// operation without waiting for it: an operation stuck in a wait that ignores
    /// cancellation cannot hold the test.
    /// - Returns: what `operation` returns.
    /// - Throws: what `operation` throws, or `CancellationError`.
    package func run<T: Sendable>(
        while operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let finished = Locked(false)
        let task = Task {
            defer {
                finished.withLock { $0 = true }
                wakeWaiters()
            }
            return try await operation()
        }
        try await pump {
            finished.withLock { $0 }
        } onCancel: {
            task.cancel()
        }
        return try await task.value
    }

    /// Runs the work queued now and later, as it is queued, until `condition` holds after
    /// a run: how a test waits for something the loop's work brings about (a response that a
    /// route computed in a task of its own hands back to the loop). The condition must come
    /// true through work of this loop; a hang guard around the call catches one that never
    /// does (cancelling the calling task ends the wait).
    /// - Throws: `CancellationError`.
    package func run(until condition: @escaping @Sendable () -> Bool) async throws {
        try await pump(until: condition)
    }

    /// Runs work as it is queued until `done` holds after a run; throws `CancellationError`
    /// when the calling task is cancelled first.
    private func pump(
        until done: @escaping @Sendable () -> Bool,
        onCancel: @escaping @Sendable () -> Void = {}
    ) async throws {
        try await withTaskCancellationHandler {
            while true {
                try Task.checkCancellation()
                if run() == 0, queuedWorkCount > 0 {
                    // Another caller runs the loop and will take this work: let it.
                    await Task.yield()
                    continue
                }
                if done() {
                    run()
                    return
                }
                await waitForWork(unless: done)
            }
        } onCancel: {
            onCancel()
            wakeWaiters()
        }
    }

    /// Suspends until work is queued, `done` holds or the task is cancelled.
    ///
    /// `done` is evaluated outside the loop's lock (it may take locks of the code under test,
    /// which hold theirs while they queue work); whoever makes it true through anything but
    /// new work calls ``wakeWaiters()``, which a wait that began after the check still sees.
    private func waitForWork(unless done: @escaping @Sendable () -> Bool) async {
        let wakeups = state.withLock { $0.wakeups }
        if done() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if !state.work.isEmpty || state.wakeups != wakeups || Task.isCancelled { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func wakeWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.wakeups &+= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
