internal import CCastSystem
public import CastNetCore
import CastTime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One thread on which a set of connections run.
///
/// Every connection is bound to one loop for its whole life and all of its state is touched
/// only on the loop's thread, so a connection needs no lock of its own. Many connections
/// share one loop; a loop never blocks except in `epoll_wait`.
///
/// The thread waits in `epoll_wait` on one `epoll` instance and calls the descriptors'
/// handlers itself, so a readiness event costs no hop to another thread. Work handed to
/// ``execute(_:)`` from elsewhere goes into a locked queue; the thread is woken through an
/// `eventfd` only when it is asleep. Timers (``schedule(after:_:)``) run on the thread too,
/// their nearest deadline being the timeout of `epoll_wait`.
///
/// Sockets are added to and removed from the `epoll` instance on the loop's thread, before
/// they are closed, and every registration carries a number of its own in its events, so a
/// descriptor number reused by the kernel can never receive an event of a closed socket.
///
/// The thread ends when the loop is released (the loops of ``EventLoopGroup/shared`` live as
/// long as the process); work still queued then runs first, timers not yet due are dropped.
public final class EventLoop: Sendable, ChannelLoop {
    /// A read buffer shared by every connection of the loop (used only on the loop's thread).
    let scratch: ScratchBuffer
    let core: LoopCore

    /// Creates a loop and starts its thread.
    /// - Parameter label: a name for the loop, shown in crash reports.
    public convenience init(label: String = "cast.eventloop") {
        self.init(label: label, permanent: false)
    }

    /// Creates a loop; a `permanent` one is never released and may take ``SystemCastClock``'s timers.
    init(label: String, permanent: Bool) {
        scratch = ScratchBuffer(capacity: 64 * 1024)
        core = LoopCore(label: label, permanent: permanent)
        core.start()
    }

    deinit {
        core.stop()
    }

    /// Runs `work` on the loop's thread, later, after work handed over before it.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        core.enqueue(work)
    }

    /// Runs `action` on the loop's thread once `delay` has passed, unless the returned timer
    /// is cancelled first. May be called from any thread.
    ///
    /// Timers run in deadline order, never early and at most a few milliseconds late (1 % of
    /// the delay, up to 4 ms, so that timers due close together share a wake-up); an `exact`
    /// timer has no such slack and runs as soon as the loop's millisecond wake-up allows.
    @discardableResult
    func schedule(after delay: Duration, exact: Bool = false, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        core.schedule(after: delay, exact: exact, action)
    }

    /// Runs `action` on the loop's thread at `deadline` nanoseconds of the monotonic clock
    /// (``uptimeNanoseconds``), with no slack: timers given absolute deadlines run in their
    /// order however late the scheduling thread was.
    @discardableResult
    func schedule(atUptimeNanoseconds deadline: UInt64, _ action: @escaping @Sendable () -> Void) -> CastTimer {
        core.schedule(at: deadline, slack: 0, action)
    }

    /// The monotonic clock of ``schedule(atUptimeNanoseconds:_:)``, in nanoseconds.
    static var uptimeNanoseconds: UInt64 { LoopCore.uptimeNanoseconds }

    /// Traps unless called on the loop's thread.
    func assertInLoop() {
        precondition(core.isCurrentThread, "not on the event loop's thread")
    }

    /// Whether the caller runs on the loop's thread.
    public var inLoop: Bool { core.isCurrentThread }

    /// Starts watching `fd` for `interest`; events go to `handler` on the loop's thread.
    func register(_ fd: Int32, interest: IOInterest, handler: any IOHandler) throws(TCPError) {
        assertInLoop()
        try core.register(fd, interest: interest, handler: handler)
    }

    /// Changes what `fd` is watched for.
    func update(_ fd: Int32, interest: IOInterest) {
        assertInLoop()
        core.update(fd, interest: interest)
    }

    /// Stops reporting anything for `fd`, hang-ups included, until the next ``update(_:interest:)``;
    /// the descriptor stays registered (and its handler retained).
    func park(_ fd: Int32) {
        assertInLoop()
        core.park(fd)
    }

    /// Stops watching `fd`; call before closing it.
    func deregister(_ fd: Int32) {
        assertInLoop()
        core.deregister(fd)
    }
}

/// What a descriptor is watched for.
struct IOInterest: OptionSet, Sendable {
    let rawValue: UInt32

    static let read = IOInterest(rawValue: 1)
    static let write = IOInterest(rawValue: 2)

    var epollEvents: UInt32 {
        var events: UInt32 = 0
        if contains(.read) { events |= EPOLLIN.rawValue }
        if contains(.write) { events |= EPOLLOUT.rawValue }
        return events
    }
}

/// Receives readiness of one descriptor, on its loop's thread.
protocol IOHandler: AnyObject {
    /// The descriptor is readable, writable, hung up or in error. `hangup` and `error`
    /// are reported even without interest; the handler must stop watching or close.
    func ioReady(readable: Bool, writable: Bool, hangup: Bool, error: Bool)
}

/// A fixed block of memory reused by every read on one loop.
///
/// `@unchecked Sendable`: the memory is only read or written on the owning loop's thread.
final class ScratchBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        pointer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { pointer.deallocate() }
}
