import Dispatch

/// One serial dispatch queue on which a set of connections run.
///
/// Every connection is bound to one loop for its whole life: its socket sources fire on the
/// loop's queue and all of its state is touched only there, so a connection needs no lock of
/// its own. Many connections share one loop; a loop never blocks.
public final class EventLoop: Sendable {
    /// The queue that runs this loop's work.
    let queue: DispatchQueue
    /// A read buffer shared by every connection of the loop (used only on `queue`).
    let scratch: ScratchBuffer

    /// Creates a loop with its own serial queue.
    /// - Parameter label: the queue label, shown in debuggers.
    public init(label: String = "cast.eventloop") {
        self.queue = DispatchQueue(label: label, qos: .userInitiated)
        self.scratch = ScratchBuffer(capacity: 64 * 1024)
    }

    /// Runs `work` on the loop's queue, later.
    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Traps unless called on the loop's queue.
    func assertInLoop() {
        dispatchPrecondition(condition: .onQueue(queue))
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
