internal import CCastSystem
import CastNetCore
import CastSync
import CastTime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The thread of an ``EventLoop``: its `epoll` instance, the handlers of its descriptors, the
/// queue of work handed to it and its timers.
///
/// `@unchecked Sendable`: `handlers`, `nextRegistration` and `events` are used only on the
/// loop's thread (every entry point that touches them asserts it); everything else the other
/// threads reach is in `state`, under its mutex, or atomic.
final class LoopCore: @unchecked Sendable {
    private struct State {
        var work: [@Sendable () -> Void] = []
        var timers = LoopTimerHeap()
        /// The thread is in, or about to enter, `epoll_wait` and must be woken for new work.
        var sleeping = false
        /// When the sleeping thread wakes by itself (`UInt64.max`: only when woken).
        var sleepDeadline: UInt64 = .max
        var stopping = false
    }

    /// The tag of the wake-up `eventfd` in `epoll` events; no registration has it (its
    /// descriptor half would be -1).
    private static let wakeTag = UInt64.max
    private static let eventCapacity: Int32 = 256
    /// The most a timer may run late: 1 % of its delay, up to this. Heartbeats (seconds
    /// apart) then share the wake-ups of the I/O around them instead of each waking the thread.
    private static let maximumSlack: UInt64 = 4_000_000

    let label: String
    /// The loop lives as long as the process (a loop of ``EventLoopGroup/shared``); timers
    /// of ``SystemCastClock`` may go to it.
    let isPermanent: Bool
    private let epollFD: Int32
    private let wakeFD: Int32
    private let state = Locked(State())
    private let threadID = Atomic<UInt>(0)
    /// Handlers by descriptor, with the registration number carried in each event, so an
    /// event left over from a closed descriptor never reaches a newer one with the same number.
    private var handlers: [Int32: (registration: UInt32, handler: any IOHandler)] = [:]
    private var nextRegistration: UInt32 = 0
    private let events: UnsafeMutablePointer<epoll_event>

    init(label: String, permanent: Bool) {
        self.label = label
        self.isPermanent = permanent
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epollFD >= 0, "epoll_create1 failed: errno \(errno)")
        wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(wakeFD >= 0, "eventfd failed: errno \(errno)")
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeTag
        let added = epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event)
        precondition(added == 0, "epoll_ctl of the wake-up eventfd failed: errno \(errno)")
        events = .allocate(capacity: Int(Self.eventCapacity))
        events.initialize(repeating: epoll_event(), count: Int(Self.eventCapacity))
    }

    deinit {
        events.deallocate()
        _ = close(wakeFD)
        _ = close(epollFD)
    }

    /// Starts the loop's thread; it keeps this object alive until ``stop()``.
    ///
    /// The thread starts with every asynchronous signal blocked (as Dispatch's worker threads
    /// do), so a signal meant for the process goes to a thread that waits for it, never to a
    /// loop.
    func start() {
        var blocked = sigset_t()
        sigfillset(&blocked)
        for synchronous in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV, SIGSYS] {
            sigdelset(&blocked, synchronous)
        }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(
            &thread,
            nil,
            { context in
                let core = Unmanaged<LoopCore>.fromOpaque(context!).takeRetainedValue()
                core.run()
                return nil
            },
            context
        )
        precondition(created == 0, "pthread_create failed for \(label): \(created)")
        pthread_detach(thread)
    }

    /// Asks the thread to finish the work queued so far and end.
    func stop() {
        let wake = state.withLock { state in
            state.stopping = true
            return takeSleeper(&state)
        }
        if wake { wakeUp() }
    }

    /// Whether the caller runs on the loop's thread.
    var isCurrentThread: Bool {
        pthread_equal(threadID.load(ordering: .relaxed), pthread_self()) != 0
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        let wake = state.withLock { state in
            state.work.append(work)
            return takeSleeper(&state)
        }
        if wake { wakeUp() }
    }

    /// Schedules `action`; with `exact` it gets no slack, so it never waits for timers due
    /// near it.
    func schedule(after delay: Duration, exact: Bool = false, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        let nanoseconds = Self.nanoseconds(delay)
        let slack = exact ? 0 : min(nanoseconds / 100, Self.maximumSlack)
        return schedule(at: Self.now() &+ nanoseconds, slack: slack, action)
    }

    /// Schedules `action` at `deadline` on the monotonic clock (``uptimeNanoseconds``), with
    /// at most `slack` nanoseconds of lateness allowed to share a wake-up.
    func schedule(at deadline: UInt64, slack: UInt64, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        let (id, wake) = state.withLock { state in
            let id = state.timers.insert(deadline: deadline, slack: slack, action)
            let wake = deadline &+ slack < state.sleepDeadline && takeSleeper(&state)
            return (id, wake)
        }
        if wake { wakeUp() }
        return CastTimer { [weak self] in
            self?.state.withLock { state in _ = state.timers.cancel(id) }
        }
    }

    /// Claims the duty of waking a sleeping thread, so that only one caller writes the `eventfd`.
    private func takeSleeper(_ state: inout State) -> Bool {
        guard state.sleeping else { return false }
        state.sleeping = false
        state.sleepDeadline = .max
        return true
    }

    private func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: Descriptors (loop thread only)

    private func tag(_ fd: Int32, _ registration: UInt32) -> UInt64 {
        UInt64(UInt32(bitPattern: fd)) | UInt64(registration) << 32
    }

    func register(_ fd: Int32, interest: IOInterest, handler: any IOHandler) throws(TCPError) {
        nextRegistration &+= 1
        var event = epoll_event()
        event.events = interest.epollEvents
        event.data.u64 = tag(fd, nextRegistration)
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw TCPError(errno: errno, operation: "epoll_ctl")
        }
        handlers[fd] = (nextRegistration, handler)
    }

    func update(_ fd: Int32, interest: IOInterest) {
        modify(fd, events: interest.epollEvents)
    }

    func park(_ fd: Int32) {
        // One-shot with no events: a pending hang-up is reported at most once more, then
        // the descriptor is disarmed until modified again.
        modify(fd, events: EPOLLONESHOT.rawValue)
    }

    private func modify(_ fd: Int32, events: UInt32) {
        guard let registration = handlers[fd]?.registration else { return }
        var event = epoll_event()
        event.events = events
        event.data.u64 = tag(fd, registration)
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    func deregister(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        var event = epoll_event()
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, &event)
    }

    // MARK: The thread

    private func run() {
        threadID.store(pthread_self(), ordering: .relaxed)
        if isPermanent {
            // Never released, so an unretained pointer stays valid.
            pthread_setspecific(Self.permanentLoopKey, Unmanaged.passUnretained(self).toOpaque())
        }
        var work: [@Sendable () -> Void] = []
        var due: [@Sendable () -> Void] = []
        while true {
            let before = Self.now()
            let timeout = state.withLock { state -> Int32 in
                if !state.work.isEmpty || state.stopping { return 0 }
                guard let latest = state.timers.earliestLatest() else {
                    state.sleeping = true
                    state.sleepDeadline = .max
                    return -1
                }
                if latest <= before { return 0 }
                state.sleeping = true
                state.sleepDeadline = latest
                return Self.milliseconds(until: latest, from: before)
            }
            let count = epoll_wait(epollFD, events, Self.eventCapacity, timeout)
            let after = Self.now()
            let stopping = state.withLock { state in
                state.sleeping = false
                state.sleepDeadline = .max
                swap(&state.work, &work)
                state.timers.popDue(now: after, into: &due)
                return state.stopping
            }
            if count > 0 { dispatch(count: Int(count)) }
            for item in work { item() }
            work.removeAll(keepingCapacity: true)
            for action in due { action() }
            due.removeAll(keepingCapacity: true)
            if stopping { break }
        }
        finish()
    }

    private func dispatch(count: Int) {
        for index in 0..<count {
            let event = events[index]
            if event.data.u64 == Self.wakeTag {
                var value: UInt64 = 0
                _ = read(wakeFD, &value, MemoryLayout<UInt64>.size)
                continue
            }
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: event.data.u64))
            let registration = UInt32(truncatingIfNeeded: event.data.u64 >> 32)
            // A handler may have closed this descriptor earlier in the same batch, and a new
            // socket may have been given the same number since.
            guard let entry = handlers[fd], entry.registration == registration else { continue }
            let flags = event.events
            entry.handler.ioReady(
                readable: flags & EPOLLIN.rawValue != 0,
                writable: flags & EPOLLOUT.rawValue != 0,
                hangup: flags & EPOLLHUP.rawValue != 0,
                error: flags & EPOLLERR.rawValue != 0
            )
        }
    }

    /// Runs what is still queued, then lets go of handlers and timers.
    private func finish() {
        while true {
            let work = state.withLock { state in
                defer { state.work = [] }
                return state.work
            }
            if work.isEmpty { break }
            for item in work { item() }
        }
        handlers = [:]
        state.withLock { $0.timers = LoopTimerHeap() }
    }

    /// The permanent loop whose thread is the caller, if any.
    static var currentPermanent: LoopCore? {
        guard let pointer = pthread_getspecific(permanentLoopKey) else { return nil }
        return Unmanaged<LoopCore>.fromOpaque(pointer).takeUnretainedValue()
    }

    private static let permanentLoopKey: pthread_key_t = {
        var key = pthread_key_t()
        let created = pthread_key_create(&key, nil)
        precondition(created == 0, "pthread_key_create failed: \(created)")
        return key
    }()

    // MARK: Time

    /// CLOCK_MONOTONIC in nanoseconds.
    /// The monotonic clock timers run on, in nanoseconds.
    static var uptimeNanoseconds: UInt64 { now() }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        // Capped before `components`, which traps for more than Int64.max seconds.
        let cap = Int64(UInt64.max / 2_000_000_000)
        guard duration < .seconds(cap) else { return UInt64(cap) &* 1_000_000_000 }
        let (seconds, attoseconds) = max(duration, .zero).components
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }

    /// The `epoll_wait` timeout for `deadline`, rounded up so the thread never wakes early.
    private static func milliseconds(until deadline: UInt64, from now: UInt64) -> Int32 {
        let millis = (deadline - now + 999_999) / 1_000_000
        return Int32(min(millis, UInt64(Int32.max)))
    }
}
