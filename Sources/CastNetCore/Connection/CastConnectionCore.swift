import CastCore
package import CastSync
package import CastTime
package import Synchronization

/// The loop-side half of `CastNet`'s `CastConnection`: performs what its
/// ``CastConnectionStateMachine`` decides (framing, delivery to one consumer, reading from the
/// socket only while the consumer keeps up, the frame deadline, the close) and holds what
/// the machine cannot: the channel, the waiting continuations and handlers, the timer.
///
/// Reads are sized from the decoder (the header, then exactly the rest of the frame), so at
/// most one frame is ever buffered here. It runs on any ``ByteChannel``: a socket or TLS in
/// `CastNet`, a channel in memory in tests. `@unchecked Sendable`: everything except the
/// atomics and the outbox is used only on the channel's loop thread.
package final class CastConnectionCore: ByteChannelHandler, @unchecked Sendable {
    package typealias FrameContinuation = HandOffContinuation<Result<[UInt8]?, CastConnectionError>>

    package let channel: any ByteChannel
    package let loop: any ChannelLoop
    package let limits: CastConnectionLimits
    package let clock: any CastClock
    /// Frames given to `send` and not yet written to the channel. Sends from any thread
    /// append here; the first one of a batch schedules one write of the whole batch on the
    /// loop, so a burst of frames costs one TLS write and one system call.
    package let outbox = Locked(Outbox())
    /// Bytes the channel held for the socket after the last write (updated on the loop).
    package let channelBacklog = Atomic<Int>(0)
    package let isClosedFlag = Atomic<Bool>(false)

    private var machine: CastConnectionStateMachine
    /// The `frames` request the machine holds, if any.
    private var waiter: FrameContinuation?
    /// The handler frames go to once the machine delivers by push.
    private var handler: (@Sendable ([UInt8]) -> Void)?
    private var closeWaiters: [CheckedContinuation<CastConnectionError?, Never>] = []
    private var closeHandlers: [@Sendable (CastConnectionError?) -> Void] = []
    /// In handler mode the connection keeps its public object alive until it closes, so a
    /// server need not hold it.
    package var retainedOwner: AnyObject?
    private var flushWaiters: [CheckedContinuation<Result<Void, CastConnectionError>, Never>] = []
    private var frameTimer: CastTimer?

    /// Takes over an active channel; call on its loop.
    package init(channel: any ByteChannel, limits: CastConnectionLimits, clock: any CastClock) {
        self.channel = channel
        self.loop = channel.loop
        self.limits = limits
        self.clock = clock
        self.machine = CastConnectionStateMachine(limits: limits)
        channel.handler = self
        channel.maximumReadSize = machine.maximumReadSize
    }

    // MARK: Actions

    /// Performs `actions`; `request` is the continuation of the `frames` request that caused
    /// them, if one did.
    private func perform(_ actions: [CastConnectionStateMachine.Action], request: FrameContinuation? = nil) {
        for action in actions {
            switch action {
            case .answerRequest(let result):
                request?.resume(returning: result)
            case .holdRequest:
                waiter = request
            case .resumeHeldRequest(let result):
                let held = waiter
                waiter = nil
                held?.resume(returning: result)
            case .deliver(let frame):
                handler?(frame)
            case .setReading(let wanted):
                channel.setReading(wanted)
            case .setMaximumReadSize(let size):
                channel.maximumReadSize = size
            case .armFrameTimer(let delay):
                let loop = self.loop
                frameTimer = clock.schedule(after: delay) { [weak self] in
                    guard let core = self else { return }
                    loop.execute { core.frameTimerFired() }
                }
            case .closeChannel(let error):
                channel.close(error: error)
            case .closeGracefully:
                channel.closeGracefully()
            case .finish(let reported):
                finish(reporting: reported)
            }
        }
    }

    private func frameTimerFired() {
        frameTimer = nil
        perform(machine.frameDeadlinePassed(now: clock.now))
    }

    private func finish(reporting reported: CastConnectionError?) {
        frameTimer?.cancel()
        frameTimer = nil
        let flushes = flushWaiters
        flushWaiters = []
        let failure = reported ?? CastConnectionError(code: .closed, reason: "the connection closed before the flush")
        for continuation in flushes { continuation.resume(returning: .failure(failure)) }
        let waiters = closeWaiters
        closeWaiters = []
        for continuation in waiters { continuation.resume(returning: reported) }
        let handlers = closeHandlers
        closeHandlers = []
        for handler in handlers { handler(reported) }
        handler = nil
        retainedOwner = nil
    }

    // MARK: Consumers (on the loop)

    package func nextFrame(_ continuation: FrameContinuation) {
        perform(machine.frameRequested(), request: continuation)
    }

    package func cancelWaiter() {
        perform(machine.requestCancelled())
    }

    package func setHandler(_ handler: @escaping @Sendable ([UInt8]) -> Void) {
        self.handler = handler
        perform(machine.handlerInstalled())
    }

    package func onClose(_ handler: @escaping @Sendable (CastConnectionError?) -> Void) {
        if machine.isFinished {
            handler(machine.closeError)
        } else {
            closeHandlers.append(handler)
        }
    }

    package func waitForClose(_ continuation: CheckedContinuation<CastConnectionError?, Never>) {
        if machine.isFinished {
            continuation.resume(returning: machine.closeError)
        } else {
            closeWaiters.append(continuation)
        }
    }

    package struct Outbox {
        package var frames: [[UInt8]] = []
        package var byteCount = 0
        package var flushScheduled = false
    }

    // MARK: Sending (on the loop)

    package func flushOutbox() {
        let frames = outbox.withLock { outbox -> [[UInt8]] in
            defer {
                outbox.frames = []
                outbox.byteCount = 0
                outbox.flushScheduled = false
            }
            return outbox.frames
        }
        guard !machine.isFinished, !frames.isEmpty else { return }
        if frames.count == 1 {
            channel.write(frames[0])
        } else {
            channel.write(messages: frames)
        }
        let backlog = channel.pendingWriteBytes
        channelBacklog.store(backlog, ordering: .relaxed)
        if backlog > limits.sendQueueLimit {
            fail(sendQueueFull(queued: backlog))
        }
    }

    package func sendQueueFull(queued: Int) -> CastConnectionError {
        CastConnectionError(
            code: .sendQueueFull,
            reason: "\(queued) bytes wait to be sent, over the limit of \(limits.sendQueueLimit): "
                + "the peer is not reading"
        )
    }

    /// Resumes once every frame sent before the call has been handed to the kernel.
    /// Frames sent earlier were queued on this loop before this call, so they are written.
    package func flush(_ continuation: CheckedContinuation<Result<Void, CastConnectionError>, Never>) {
        if machine.isFinished {
            continuation.resume(
                returning: .failure(
                    machine.closeError ?? CastConnectionError(code: .closed, reason: "flush after close")
                )
            )
        } else if channel.pendingWriteBytes == 0 {
            continuation.resume(returning: .success(()))
        } else {
            flushWaiters.append(continuation)
        }
    }

    package func close(reason: String?) {
        perform(machine.closeRequested(reason: reason))
    }

    package func fail(_ error: CastConnectionError) {
        perform(machine.failed(error))
    }

    // MARK: Channel events

    package func channelDidBecomeActive(_ channel: any ByteChannel) {}

    package func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
        perform(machine.bytesRead(bytes, now: clock.now))
    }

    package func channelDidReadEndOfFile(_ channel: any ByteChannel) {
        perform(machine.endOfFileRead())
    }

    package func channelDidDrain(_ channel: any ByteChannel) {
        channelBacklog.store(0, ordering: .relaxed)
        let waiters = flushWaiters
        flushWaiters = []
        for continuation in waiters { continuation.resume(returning: .success(())) }
    }

    package func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
        // Senders on other threads see the close before any waiter wakes.
        isClosedFlag.store(true, ordering: .relaxed)
        perform(machine.channelClosed(transportError: error.map { CastConnectionError(transport: $0) }))
    }
}
