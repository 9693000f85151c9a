internal import CCastSystem
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// One serial dispatch queue on which a set of connections run.
///
/// Every connection is bound to one loop for its whole life and all of its state is touched
/// only on the loop's queue, so a connection needs no lock of its own. Many connections
/// share one loop; a loop never blocks.
///
/// Readiness comes from one `epoll` instance per loop, watched by a single Dispatch read
/// source on the loop's queue. Sockets are added to and removed from that instance
/// synchronously, on the queue, before they are closed, so a descriptor number reused by
/// the kernel can never inherit the registration of a closed socket.
public final class EventLoop: Sendable {
    /// The queue that runs this loop's work.
    let queue: DispatchQueue
    /// A read buffer shared by every connection of the loop (used only on `queue`).
    let scratch: ScratchBuffer
    private let poller: Poller

    /// Creates a loop with its own serial queue.
    /// - Parameter label: the queue label, shown in debuggers.
    public init(label: String = "cast.eventloop") {
        let queue = DispatchQueue(label: label, qos: .userInitiated)
        self.queue = queue
        self.scratch = ScratchBuffer(capacity: 64 * 1024)
        self.poller = Poller(queue: queue)
    }

    /// Runs `work` on the loop's queue, later.
    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Traps unless called on the loop's queue.
    func assertInLoop() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Starts watching `fd` for `interest`; events go to `handler` on the loop's queue.
    func register(_ fd: Int32, interest: IOInterest, handler: any IOHandler) throws(TCPError) {
        assertInLoop()
        try poller.register(fd, interest: interest, handler: handler)
    }

    /// Changes what `fd` is watched for.
    func update(_ fd: Int32, interest: IOInterest) {
        assertInLoop()
        poller.update(fd, interest: interest)
    }

    /// Stops reporting anything for `fd`, hang-ups included, until the next ``update(_:interest:)``;
    /// the descriptor stays registered (and its handler retained).
    func park(_ fd: Int32) {
        assertInLoop()
        poller.park(fd)
    }

    /// Stops watching `fd`; call before closing it.
    func deregister(_ fd: Int32) {
        assertInLoop()
        poller.deregister(fd)
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

/// Receives readiness of one descriptor, on its loop's queue.
protocol IOHandler: AnyObject {
    /// The descriptor is readable, writable, hung up or in error. `hangup` and `error`
    /// are reported even without interest; the handler must stop watching or close.
    func ioReady(readable: Bool, writable: Bool, hangup: Bool, error: Bool)
}

/// The `epoll` instance of a loop and the handlers of its descriptors.
///
/// `@unchecked Sendable`: `handlers` is used only on the loop's queue (the Dispatch source
/// fires there and every other entry point asserts it).
private final class Poller: @unchecked Sendable {
    private let epollFD: Int32
    private let source: any DispatchSourceRead
    /// Handlers by descriptor, with the registration number carried in each event, so an
    /// event left over from a closed descriptor never reaches a newer one with the same number.
    private var handlers: [Int32: (registration: UInt32, handler: any IOHandler)] = [:]
    private var nextRegistration: UInt32 = 0
    private var events = [epoll_event](repeating: epoll_event(), count: 128)

    init(queue: DispatchQueue) {
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epollFD >= 0, "epoll_create1 failed: errno \(errno)")
        source = DispatchSource.makeReadSource(fileDescriptor: epollFD, queue: queue)
        source.setEventHandler { [unowned self] in self.poll() }
        let epollFD = self.epollFD
        source.setCancelHandler { _ = close(epollFD) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

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

    private func poll() {
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epollFD, buffer.baseAddress, Int32(buffer.count), 0)
        }
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = events[index]
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: event.data.u64))
            let registration = UInt32(truncatingIfNeeded: event.data.u64 >> 32)
            // A handler may have closed this descriptor earlier in the same batch, and a new
            // socket may have been given the same number since.
            guard let entry = handlers[fd], entry.registration == registration else { continue }
            let handler = entry.handler
            let flags = event.events
            handler.ioReady(
                readable: flags & EPOLLIN.rawValue != 0,
                writable: flags & EPOLLOUT.rawValue != 0,
                hangup: flags & EPOLLHUP.rawValue != 0,
                error: flags & EPOLLERR.rawValue != 0
            )
        }
    }
}

/// A fixed block of memory reused by every read on one loop.
///
/// `@unchecked Sendable`: the memory is only read or written on the owning loop's queue.
final class ScratchBuffer: @unchecked Sendable {
    let pointer: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        pointer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { pointer.deallocate() }
}
