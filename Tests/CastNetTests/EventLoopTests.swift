import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastNet

#if canImport(Glibc)
import Glibc
#endif

@Suite struct EventLoopTests {
    @Test func groupHandsOutLoopsRoundRobin() {
        let group = EventLoopGroup(loopCount: 3)
        let picked = (0..<6).map { _ in group.next() }
        #expect(picked[0] === picked[3])
        #expect(picked[1] === picked[4])
        #expect(picked[0] !== picked[1])
        #expect(picked[1] !== picked[2])
    }

    /// Short-lived connections reuse descriptor numbers constantly; every one must still
    /// see its events (a lost registration would leave an exchange waiting forever).
    @Test func churnOfShortConnectionsWithReusedDescriptorsAllComplete() async throws {
        let group = EventLoopGroup(loopCount: 2)
        let listener = try TCPListener(address: .loopbackIPv4(), group: group)
        defer { listener.close() }
        let server = Task {
            await withDiscardingTaskGroup { tasks in
                for await connection in listener.connections {
                    tasks.addTask {
                        while let bytes = try? await connection.receive() {
                            _ = try? await connection.send(bytes)
                        }
                        connection.close()
                    }
                }
            }
        }
        let address = listener.localAddress
        // A deadline turns a lost event into a failure instead of a hang.
        let completed = try await withDeadline(.seconds(60), "the 400 exchanges") {
            try await withThrowingTaskGroup(of: Void.self) { exchanges in
                for round in 0..<20 {
                    for index in 0..<20 {
                        exchanges.addTask {
                            let client = try await TCPConnection.connect(to: address, group: group)
                            let byte = UInt8(truncatingIfNeeded: round * 20 + index)
                            try await client.send([byte])
                            let echoed = try await client.receive()
                            client.close()
                            guard echoed == [byte] else { throw TestFailure("wrong echo") }
                        }
                    }
                    try await exchanges.waitForAll()
                }
            }
            return 400
        }
        #expect(completed == 400)
        listener.close()
        server.cancel()
    }

    /// Work handed over from several threads at once runs on the loop's thread, each
    /// sender's work in the order it was handed over.
    @Test func executeRunsWorkOnTheLoopThreadInOrder() async throws {
        let loop = EventLoop(label: "test.execute")
        let senders = 4
        let perSender = 500
        let seen = Shared<[[Int]]>(Array(repeating: [], count: senders))
        let remaining = Shared<Int>(senders * perSender)
        let done = try await withDeadline(.seconds(60), "all work to run") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                for sender in 0..<senders {
                    Thread.detachNewThread {
                        for index in 0..<perSender {
                            loop.execute {
                                loop.assertInLoop()
                                seen.value.withLock { $0[sender].append(index) }
                                let left = remaining.value.withLock { count in
                                    count -= 1
                                    return count
                                }
                                if left == 0 {
                                    continuation.resume(returning: true)
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(done)
        let orders = seen.value.withLock { $0 }
        for order in orders { #expect(order == Array(0..<perSender)) }
    }

    /// Timers scheduled from outside the loop wake it early enough, run on its thread in
    /// deadline order, and a cancelled one never runs.
    @Test func timersRunInDeadlineOrderAndCancelledOnesDoNot() async throws {
        let loop = EventLoop(label: "test.timers")
        let fired = Shared<[Int]>([])
        let order = try await withDeadline(.seconds(60), "the timers to fire") {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
                // Absolute deadlines from one instant: the order holds however long this
                // thread is preempted between the calls. The loop first sleeps towards the
                // last deadline, then is given earlier ones.
                let start = EventLoop.uptimeNanoseconds
                @Sendable func at(_ milliseconds: UInt64) -> UInt64 { start + milliseconds * 1_000_000 }
                loop.schedule(atUptimeNanoseconds: at(80)) {
                    loop.assertInLoop()
                    continuation.resume(returning: fired.value.withLock { $0 })
                }
                for value in [60, 20, 40] {
                    loop.schedule(atUptimeNanoseconds: at(UInt64(value))) {
                        loop.assertInLoop()
                        fired.value.withLock { $0.append(value) }
                    }
                }
                // Scheduled and cancelled in one turn of the loop, which cannot run a timer in
                // between however long a loaded machine holds either thread.
                loop.execute {
                    let cancelled = loop.schedule(atUptimeNanoseconds: at(30)) {
                        fired.value.withLock { $0.append(-1) }
                    }
                    cancelled.cancel()
                }
            }
        }
        #expect(order == [20, 40, 60])
    }

    /// A delay longer than `Int64.max` seconds (a device's clock reaching an absurd media
    /// time) saturates instead of trapping, and the timer can still be cancelled while
    /// earlier timers keep running.
    @Test func anAbsurdlyLongDelaySaturates() async throws {
        let loop = EventLoop(label: "test.long-timer")
        let ran = try await withDeadline(.seconds(60), "the short timer to fire") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let far = loop.schedule(after: .seconds(1e19)) { continuation.resume(returning: false) }
                loop.schedule(after: .milliseconds(1)) {
                    far.cancel()
                    continuation.resume(returning: true)
                }
            }
        }
        #expect(ran)
    }

    @Test func timerScheduledOnTheLoopRuns() async throws {
        let loop = EventLoop(label: "test.inner-timer")
        let ran = try await withDeadline(.seconds(60), "the timer to fire") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                loop.execute {
                    loop.schedule(after: .milliseconds(1)) {
                        loop.assertInLoop()
                        continuation.resume(returning: true)
                    }
                }
            }
        }
        #expect(ran)
    }

    /// Releasing a loop ends its thread (which holds the loop's core until it returns),
    /// after running the work queued before.
    @Test func releasingTheLoopEndsItsThreadAfterQueuedWork() async throws {
        let ranQueuedWork = Shared(false)
        weak var core: LoopCore?
        do {
            let loop = EventLoop(label: "test.release")
            core = loop.core
            loop.execute { ranQueuedWork.value.withLock { $0 = true } }
        }
        // Nothing announces the end of the loop's thread: its core's release is polled.
        let released = WeakCore(core)
        try? await pollUntil("the loop's thread to end", within: .seconds(60)) { released.isReleased }
        #expect(core == nil)
        let ranQueued = ranQueuedWork.value.withLock { $0 }
        #expect(ranQueued)
    }

    /// The system clock's timers run on the shared loops; one scheduled from a shared loop's
    /// thread runs on that same thread.
    @Test func systemClockTimerFromASharedLoopStaysOnIt() async throws {
        let loop = EventLoopGroup.shared.next()
        let sameThread = try await withDeadline(.seconds(60), "the timer to fire") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                loop.execute {
                    SystemCastClock().schedule(after: .milliseconds(1)) {
                        continuation.resume(returning: loop.core.isCurrentThread)
                    }
                }
            }
        }
        #expect(sameThread)
    }

    @Test func systemClockSleepsAndItsTimersCanBeCancelled() async throws {
        let clock = SystemCastClock()
        let fired = Shared(false)
        // Two seconds: longer than a loaded machine holds this thread between the two calls.
        let timer = clock.schedule(after: .seconds(2)) { fired.value.withLock { $0 = true } }
        timer.cancel()
        // Past the cancelled timer's deadline: it would have run by now.
        try await clock.sleep(for: .milliseconds(2_100))
        let ran = fired.value.withLock { $0 }
        #expect(!ran)
    }

    /// A loop's thread blocks SIGINT and SIGTERM, so a process-wide signal never lands there.
    @Test func loopThreadBlocksAsynchronousSignals() async throws {
        let loop = EventLoop(label: "test.signals")
        let blocked = try await withDeadline(.seconds(60), "the loop to report its mask") {
            await withCheckedContinuation { (continuation: CheckedContinuation<[Bool], Never>) in
                loop.execute {
                    var mask = sigset_t()
                    pthread_sigmask(SIG_BLOCK, nil, &mask)
                    let answer = [SIGINT, SIGTERM, SIGUSR1, SIGSEGV].map { sigismember(&mask, $0) == 1 }
                    continuation.resume(returning: answer)
                }
            }
        }
        #expect(blocked == [true, true, true, false])
    }
}

/// A value behind a mutex that closures on several threads can share.
private final class Shared<Value: Sendable>: Sendable {
    let value: Locked<Value>

    init(_ value: Value) {
        self.value = Locked(value)
    }
}

/// A weak reference to a loop's core that a polling closure can hold.
private final class WeakCore: @unchecked Sendable {
    // Unchecked: written once at creation; a weak reference reads safely from any thread.
    weak var core: LoopCore?

    init(_ core: LoopCore?) { self.core = core }

    var isReleased: Bool { core == nil }
}
