import CastCore
public import CastCrypto
public import CastNetCore
import CastSync
public import CastTime
import Synchronization

/// A Cast channel: a TLS stream carrying length-prefixed frames.
///
/// The connection moves frame bodies (serialized `CastMessage`s) and never looks inside
/// them. Inbound frames arrive through ``frames`` (an async sequence) or, for servers that
/// want no task per connection, through ``setFrameHandler(_:)``. Reading from the socket
/// pauses while a frame waits for its consumer, so a slow consumer holds at most one frame.
/// ``send(_:)`` queues without waiting; a peer that stops reading cannot grow the queue past
/// ``CastConnectionConfiguration/sendQueueLimit``: the connection closes with
/// ``CastConnectionError/Code/sendQueueFull`` instead.
public final class CastConnection: Sendable {
    let core: CastConnectionCore

    /// The local address of the socket.
    public let localAddress: SocketAddress?
    /// The address of the peer.
    public let remoteAddress: SocketAddress?
    /// The peer's TLS certificate (a device's certificate on the sender side), encoded when
    /// read: a connection keeps only OpenSSL's own copy, not 1 KiB of DER per session.
    public var peerCertificate: Certificate? { peerCertificateReference.flatMap(Certificate.init(reference:)) }
    private let peerCertificateReference: X509Reference?
    /// The negotiated TLS version, such as `"TLSv1.3"`.
    public let tlsVersion: String?

    /// - Parameter socket: the core's channel when it is a socket (passed by the caller that
    ///   made it: a dynamic cast would scan the program's protocol conformances once per
    ///   process, a cost a short command pays in full).
    init(core: CastConnectionCore, socket: (any NetworkByteChannel)?) {
        self.core = core
        localAddress = socket?.localAddress
        remoteAddress = socket?.remoteAddress
        peerCertificateReference = socket?.peerCertificateReference
        tlsVersion = socket?.tlsVersion
    }

    /// A connection over `channel`, a channel in memory for instance, with no addresses, TLS
    /// certificate or version. Call on the channel's loop, or before that loop runs the
    /// channel.
    /// - Parameters:
    ///   - channel: an active channel, with reading off and no handler.
    ///   - configuration: the limits (its `tls` and `connectTimeout` are not used).
    ///   - clock: the clock of the frame timeout.
    package convenience init(
        channel: any ByteChannel,
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        clock: any CastClock
    ) {
        self.init(core: CastConnectionCore(channel: channel, limits: configuration.limits, clock: clock), socket: nil)
    }

    deinit {
        let core = self.core
        core.loop.execute { core.close(reason: nil) }
    }

    /// Connects to a Cast device (or any Cast TLS endpoint) at `address`.
    /// - Parameters:
    ///   - address: the device, usually port 8009.
    ///   - configuration: limits, timeouts and TLS settings.
    ///   - clock: the clock for the connect and handshake timeouts.
    ///   - group: the loops to run on.
    /// - Throws: ``TCPError`` or ``TLSError`` when the connection or handshake fails;
    ///   `CancellationError` when the task was cancelled (the socket is closed at once).
    public static func connect(
        to address: SocketAddress,
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared
    ) async throws -> CastConnection {
        let context = try configuration.tls.makeContext()
        let loop = group.next()
        let attempt = ConnectAttempt()
        let result = await withTaskCancellationHandler {
            await withHandOffContinuation { (continuation: HandOffContinuation<Result<CastConnection, any Error>>) in
                ChannelConnector.connect(
                    to: address,
                    tls: context,
                    timeout: configuration.connectTimeout,
                    clock: clock,
                    loop: loop,
                    attempt: attempt
                ) { result in
                    continuation.resume(
                        returning: result.map {
                            CastConnection(
                                core: CastConnectionCore(channel: $0, limits: configuration.limits, clock: clock),
                                socket: $0
                            )
                        }
                    )
                }
            }
        } onCancel: {
            attempt.cancel()
        }
        if case .failure = result, attempt.isCancelled { throw CancellationError() }
        return try result.get()
    }

    /// The frame bodies sent by the peer, in order. Ends when the connection closes in an
    /// orderly way; throws ``CastConnectionError`` when it fails. One consumer at a time.
    public var frames: Frames { Frames(core: core) }

    /// Delivers every inbound frame to `handler`, in order, on the connection's queue,
    /// instead of through ``frames``. The handler must not block. From then on the
    /// connection stays open until either side closes it, even when no reference to it is
    /// kept.
    public func setFrameHandler(_ handler: @escaping @Sendable ([UInt8]) -> Void) {
        let core = self.core
        core.loop.execute {
            if !core.isClosedFlag.load(ordering: .relaxed) { core.retainedOwner = self }
            core.setHandler(handler)
        }
    }

    /// Runs `handler` once when the connection closes, with the error that closed it or
    /// `nil` for an orderly close.
    public func onClose(_ handler: @escaping @Sendable (CastConnectionError?) -> Void) {
        let core = self.core
        core.loop.execute { core.onClose(handler) }
    }

    /// Queues a frame with `body` for sending and returns at once.
    /// - Throws: ``CastConnectionError`` with code ``CastConnectionError/Code/messageTooLarge``
    ///   (empty or oversized body; the connection stays open), ``CastConnectionError/Code/closed``,
    ///   or ``CastConnectionError/Code/sendQueueFull`` (the connection is then closed).
    public func send(_ body: [UInt8]) throws(CastConnectionError) {
        let frame: [UInt8]
        do {
            frame = try CastFrameEncoder.encode(body, maximumBodySize: core.limits.maximumBodySize)
        } catch {
            throw CastConnectionError(code: .messageTooLarge, reason: error.description, underlying: error)
        }
        let core = self.core
        if core.isClosedFlag.load(ordering: .relaxed) {
            throw CastConnectionError(code: .closed, reason: "send after the connection closed")
        }
        let limit = core.limits.sendQueueLimit
        let backlog = core.channelBacklog.load(ordering: .relaxed)
        let (accepted, queued, schedule) = core.outbox.withLock { outbox -> (Bool, Int, Bool) in
            let queued = outbox.byteCount + frame.count + backlog
            guard queued <= limit else { return (false, queued, false) }
            outbox.frames.append(frame)
            outbox.byteCount += frame.count
            let schedule = !outbox.flushScheduled
            outbox.flushScheduled = true
            return (true, queued, schedule)
        }
        guard accepted else {
            let error = core.sendQueueFull(queued: queued)
            core.loop.execute { core.fail(error) }
            throw error
        }
        if schedule { core.loop.execute { core.flushOutbox() } }
    }

    /// Schedules `action` on `clock`. With ``SystemCastClock`` and a connection on a loop of
    /// ``EventLoopGroup/shared``, the timer goes to this connection's own loop, so a heartbeat
    /// or request timeout that sends on the connection wakes no other thread.
    @discardableResult
    package func scheduleTimer(
        after delay: Duration,
        on clock: any CastClock,
        _ action: @escaping @Sendable () -> Void
    ) -> CastTimer {
        guard clock is SystemCastClock, let loop = core.loop as? EventLoop, loop.core.isPermanent else {
            return clock.schedule(after: delay, action)
        }
        return loop.schedule(after: delay, action)
    }

    /// The loop whose thread serves this connection, as an executor for tasks that should
    /// run there (`nil` for a channel in memory).
    package var taskExecutor: (any TaskExecutor)? { core.loop as? EventLoop }

    /// Waits until every frame sent so far has been handed to the kernel. A sender that
    /// produces frames faster than the peer reads can pace itself with this instead of
    /// running into the send queue bound.
    /// - Throws: ``CastConnectionError`` when the connection closes first.
    public func flush() async throws(CastConnectionError) {
        let core = self.core
        let result = await withCheckedContinuation { continuation in
            core.loop.execute { core.flush(continuation) }
        }
        try result.get()
    }

    /// Writes `bytes` as they are, without framing, and keeps the connection open: a
    /// fault-injection hook for peers that send broken or trickled frames.
    /// - Returns: `false` when the connection is already closed (nothing is written).
    @discardableResult
    package func sendUnframed(_ bytes: [UInt8]) -> Bool {
        let core = self.core
        guard !core.isClosedFlag.load(ordering: .relaxed) else { return false }
        core.outbox.withLock { outbox in
            outbox.frames.append(bytes)
            outbox.byteCount += bytes.count
            outbox.flushScheduled = true
        }
        core.loop.execute { core.flushOutbox() }
        return true
    }

    /// Writes `bytes` as they are, without framing, then closes: a fault-injection hook that
    /// leaves the peer holding a truncated frame.
    package func sendUnframedThenClose(_ bytes: [UInt8]) {
        let core = self.core
        core.outbox.withLock { outbox in
            outbox.frames.append(bytes)
            outbox.byteCount += bytes.count
            outbox.flushScheduled = true
        }
        core.loop.execute {
            core.flushOutbox()
            core.close(reason: "closed after \(bytes.count) unframed bytes")
        }
    }

    /// Closes the connection after queued frames are sent (TLS close_notify, then FIN).
    /// - Parameter reason: why, for the record; the peer is not told.
    public func close(reason: String? = nil) {
        let core = self.core
        core.loop.execute { core.close(reason: reason) }
    }

    /// Waits until the connection has closed; returns the error that closed it, or `nil`
    /// for an orderly close by either side.
    public func closed() async -> CastConnectionError? {
        let core = self.core
        return await withCheckedContinuation { continuation in
            core.loop.execute { core.waitForClose(continuation) }
        }
    }

    /// The frame bodies received on a ``CastConnection``.
    public struct Frames: AsyncSequence, Sendable {
        public typealias Element = [UInt8]
        public typealias Failure = CastConnectionError

        let core: CastConnectionCore

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(core: core) }

        /// Yields one frame body at a time.
        public struct AsyncIterator: AsyncIteratorProtocol {
            public typealias Element = [UInt8]
            public typealias Failure = CastConnectionError

            let core: CastConnectionCore

            public mutating func next() async throws(CastConnectionError) -> [UInt8]? {
                try await Self.receive(from: core)
            }

            public mutating func next(
                isolation actor: isolated (any Actor)?
            ) async throws(CastConnectionError)
                -> [UInt8]?
            {
                try await Self.receive(from: core)
            }

            private static func receive(from core: CastConnectionCore) async throws(CastConnectionError) -> [UInt8]? {
                let result = await withTaskCancellationHandler {
                    await withHandOffContinuation { continuation in
                        core.loop.execute { core.nextFrame(continuation) }
                    }
                } onCancel: {
                    core.loop.execute { core.cancelWaiter() }
                }
                return try result.get()
            }
        }
    }
}
