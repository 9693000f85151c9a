import CastCore
import CastSync
import Synchronization

/// The loop-side half of a ``CastConnection``: splits the plaintext stream into frames and
/// hands them to one consumer, reading from the socket only while the consumer keeps up.
///
/// Reads are sized from the decoder (the header, then exactly the rest of the frame), so at
/// most one frame is ever buffered here. `@unchecked Sendable`: everything except the
/// atomics is used only on the channel's loop thread.
final class CastConnectionCore: ByteChannelHandler, @unchecked Sendable {
    typealias FrameContinuation = HandOffContinuation<Result<[UInt8]?, CastConnectionError>>

    private enum Delivery {
        /// Nobody consumes yet: reading is off.
        case none
        /// Frames go to `frames` iterators, one at a time.
        case pull
        /// Frames go to a callback on the loop.
        case push(@Sendable ([UInt8]) -> Void)
    }

    let channel: any ByteChannel
    let loop: EventLoop
    let configuration: CastConnectionConfiguration
    let clock: any CastClock
    /// Frames given to `send` and not yet written to the channel. Sends from any thread
    /// append here; the first one of a batch schedules one write of the whole batch on the
    /// loop, so a burst of frames costs one TLS write and one system call.
    let outbox = Locked(Outbox())
    /// Bytes the channel held for the socket after the last write (updated on the loop).
    let channelBacklog = Atomic<Int>(0)
    let isClosedFlag = Atomic<Bool>(false)

    private var decoder: CastFrameDecoder
    private var delivery = Delivery.none
    private var ready: [UInt8]?
    private var waiter: FrameContinuation?
    private var endOfStream = false
    private var finished = false
    private var closeError: CastConnectionError?
    private var closeWaiters: [CheckedContinuation<CastConnectionError?, Never>] = []
    private var closeHandlers: [@Sendable (CastConnectionError?) -> Void] = []
    /// In handler mode the connection keeps its public object alive until it closes, so a
    /// server need not hold it.
    var retainedOwner: CastConnection?
    private var flushWaiters: [CheckedContinuation<Result<Void, CastConnectionError>, Never>] = []
    /// When the frame now partly read began, while the configuration limits a frame's time.
    private var partialFrameStart: CastInstant?
    /// At most one timer per connection checks the frame deadline; it is re-armed for a
    /// later frame rather than scheduled and cancelled for every frame.
    private var frameTimer: CastTimer?
    /// Frames completed so far, for the error message.
    private var framesRead = 0

    /// Takes over an active channel; call on its loop.
    init(channel: any ByteChannel, configuration: CastConnectionConfiguration, clock: any CastClock) {
        self.channel = channel
        self.loop = channel.loop
        self.configuration = configuration
        self.clock = clock
        self.decoder = CastFrameDecoder(maximumBodySize: configuration.maximumBodySize)
        channel.handler = self
        sizeNextRead()
    }

    // MARK: Consumers (on the loop)

    func nextFrame(_ continuation: FrameContinuation) {
        if case .push = delivery {
            continuation.resume(
                returning: .failure(CastConnectionError(code: .closed, reason: "frames are delivered to a handler"))
            )
            return
        }
        delivery = .pull
        if let frame = ready {
            ready = nil
            continuation.resume(returning: .success(frame))
            updateReading()
            return
        }
        if finished {
            continuation.resume(returning: closeError.map { .failure($0) } ?? .success(nil))
            return
        }
        guard waiter == nil else {
            continuation.resume(
                returning: .failure(CastConnectionError(code: .closed, reason: "frames has only one consumer"))
            )
            return
        }
        waiter = continuation
        updateReading()
    }

    func cancelWaiter() {
        guard let waiter else { return }
        self.waiter = nil
        waiter.resume(returning: .success(nil))
        updateReading()
    }

    func setHandler(_ handler: @escaping @Sendable ([UInt8]) -> Void) {
        delivery = .push(handler)
        if let frame = ready {
            ready = nil
            handler(frame)
        }
        updateReading()
    }

    func onClose(_ handler: @escaping @Sendable (CastConnectionError?) -> Void) {
        if finished {
            handler(closeError)
        } else {
            closeHandlers.append(handler)
        }
    }

    func waitForClose(_ continuation: CheckedContinuation<CastConnectionError?, Never>) {
        if finished {
            continuation.resume(returning: closeError)
        } else {
            closeWaiters.append(continuation)
        }
    }

    private func updateReading() {
        guard !finished, !endOfStream else { return }
        let wanted: Bool
        switch delivery {
        case .none: wanted = false
        case .pull: wanted = ready == nil && waiter != nil
        case .push: wanted = true
        }
        channel.setReading(wanted)
    }

    /// Asks for exactly the bytes that complete the current header or frame.
    private func sizeNextRead() {
        if let needed = decoder.bytesNeededForNextFrame {
            channel.maximumReadSize = max(1, needed)
        } else {
            channel.maximumReadSize = CastFrameDecoder.headerSize - decoder.bufferedByteCount
        }
    }

    struct Outbox {
        var frames: [[UInt8]] = []
        var byteCount = 0
        var flushScheduled = false
    }

    // MARK: Sending (on the loop)

    func flushOutbox() {
        let frames = outbox.withLock { outbox -> [[UInt8]] in
            defer {
                outbox.frames = []
                outbox.byteCount = 0
                outbox.flushScheduled = false
            }
            return outbox.frames
        }
        guard !finished, !frames.isEmpty else { return }
        if frames.count == 1 {
            channel.write(frames[0])
        } else {
            channel.write(messages: frames)
        }
        let backlog = channel.pendingWriteBytes
        channelBacklog.store(backlog, ordering: .relaxed)
        if backlog > configuration.sendQueueLimit {
            fail(sendQueueFull(queued: backlog))
        }
    }

    func sendQueueFull(queued: Int) -> CastConnectionError {
        CastConnectionError(
            code: .sendQueueFull,
            reason: "\(queued) bytes wait to be sent, over the limit of \(configuration.sendQueueLimit): "
                + "the peer is not reading"
        )
    }

    /// Resumes once every frame sent before the call has been handed to the kernel.
    /// Frames sent earlier were queued on this loop before this call, so they are written.
    func flush(_ continuation: CheckedContinuation<Result<Void, CastConnectionError>, Never>) {
        if finished {
            continuation.resume(
                returning: .failure(closeError ?? CastConnectionError(code: .closed, reason: "flush after close"))
            )
        } else if channel.pendingWriteBytes == 0 {
            continuation.resume(returning: .success(()))
        } else {
            flushWaiters.append(continuation)
        }
    }

    func close(reason: String?) {
        guard !finished else { return }
        if let reason {
            closeError = CastConnectionError(code: .closed, reason: reason)
        }
        channel.closeGracefully()
    }

    func fail(_ error: CastConnectionError) {
        guard !finished else { return }
        if closeError == nil { closeError = error }
        channel.close(error: error)
    }

    // MARK: Channel events

    func channelDidBecomeActive(_ channel: any ByteChannel) {}

    func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
        decoder.append(bytes)
        let frame: [UInt8]?
        do {
            frame = try decoder.nextFrame()
        } catch {
            fail(CastConnectionError(code: .framing, reason: error.description, underlying: error))
            return
        }
        sizeNextRead()
        if frame != nil { framesRead += 1 }
        updateFrameTimer()
        guard let frame else { return }
        switch delivery {
        case .push(let handler):
            handler(frame)
        case .pull:
            if let waiter {
                self.waiter = nil
                waiter.resume(returning: .success(frame))
            } else {
                ready = frame
                channel.setReading(false)
            }
        case .none:
            ready = frame
            channel.setReading(false)
        }
    }

    /// Notes when a frame begins and makes sure a timer will check its deadline.
    private func updateFrameTimer() {
        guard let limit = configuration.frameTimeout else { return }
        guard decoder.bufferedByteCount > 0 else {
            partialFrameStart = nil
            return
        }
        if partialFrameStart == nil { partialFrameStart = clock.now }
        if frameTimer == nil { armFrameTimer(after: limit) }
    }

    private func armFrameTimer(after delay: Duration) {
        let loop = self.loop
        frameTimer = clock.schedule(after: delay) { [weak self] in
            guard let core = self else { return }
            loop.execute { core.checkFrameDeadline() }
        }
    }

    /// Fails the connection when the frame now partly read is past its deadline; otherwise
    /// re-arms for the current frame's deadline, or stays idle until the next frame begins.
    private func checkFrameDeadline() {
        frameTimer = nil
        guard !finished, let limit = configuration.frameTimeout, let start = partialFrameStart else { return }
        let waited = start.duration(to: clock.now)
        guard waited >= limit else {
            armFrameTimer(after: limit - waited)
            return
        }
        fail(
            CastConnectionError(
                code: .frameTimeout,
                reason: "frame \(framesRead + 1) stayed unfinished for \(waited) (limit \(limit)): "
                    + "\(decoder.bufferedByteCount) of its bytes arrived"
            )
        )
    }

    func channelDidReadEndOfFile(_ channel: any ByteChannel) {
        endOfStream = true
        if decoder.bufferedByteCount > 0 {
            fail(
                CastConnectionError(
                    code: .truncatedFrame,
                    reason: "the peer closed the stream with \(decoder.bufferedByteCount) bytes of an unfinished frame"
                )
            )
            return
        }
        // The peer finished at a frame boundary: close our side too.
        channel.closeGracefully()
    }

    func channelDidDrain(_ channel: any ByteChannel) {
        channelBacklog.store(0, ordering: .relaxed)
        let waiters = flushWaiters
        flushWaiters = []
        for continuation in waiters { continuation.resume(returning: .success(())) }
    }

    func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
        finished = true
        frameTimer?.cancel()
        frameTimer = nil
        isClosedFlag.store(true, ordering: .relaxed)
        if closeError == nil, let error { closeError = CastConnectionError(transport: error) }
        let reported = closeError.flatMap { $0.code == .closed ? nil : $0 }
        closeError = reported
        if let waiter, ready == nil {
            self.waiter = nil
            waiter.resume(returning: reported.map { .failure($0) } ?? .success(nil))
        }
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
        if case .push = delivery { delivery = .none }
        retainedOwner = nil
    }
}
