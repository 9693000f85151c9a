package import CastNetCore
import CastSync

/// A ``ByteChannel`` in memory on an ``EmbeddedLoop``: what its handler writes is recorded for
/// the test (or carried to the peer of a ``pair(loop:)``), and what the test injects (bytes,
/// the end of the stream, an error) reaches the handler when the loop runs.
///
/// It behaves as a TCP socket does toward its handler: reads arrive only while reading is on,
/// in pieces of at most ``maximumReadSize`` bytes; the end of the stream is seen after the
/// bytes before it; a write counts in ``pendingWriteBytes`` until the other end took it, and
/// ``ByteChannelHandler/channelDidDrain(_:)`` follows when nothing is left; ``closeGracefully()``
/// waits for that; the handler hears of the close once.
///
/// Of a pair, each side's writes become the other's reads: the bytes wait in the reader's
/// buffer until its handler reads them, so a reader that stops reading holds the writer's
/// bytes pending, as a full socket buffer would (with no buffer of its own: the first byte
/// unread already counts). Closing one side ends the other's stream; bytes written to a
/// closed side are dropped.
///
/// `@unchecked Sendable`: the state is under one lock, and the handler is called only from
/// work the loop runs, outside that lock.
package final class EmbeddedByteChannel: ByteChannel, @unchecked Sendable {
    private struct State {
        var handler: (any ByteChannelHandler)?
        var maximumReadSize = 16 * 1024
        var reading = false
        var deliveryQueued = false
        /// Bytes written to this side, not yet read by its handler.
        var inbound: [UInt8] = []
        var inboundEnded = false
        var endDelivered = false
        /// Every write of the handler, in order.
        var written: [[UInt8]] = []
        /// Written bytes the test has not taken with ``readOutbound()`` (no peer only).
        var outbound: [UInt8] = []
        var outputShut = false
        var closeWhenDrained = false
        var closed = false
        var closeError: (any Error)?
    }

    private let embeddedLoop: EmbeddedLoop
    private let state = Locked(State())
    private weak var peer: EmbeddedByteChannel?

    /// Creates an active channel on `loop` whose other end is the test.
    package init(loop: EmbeddedLoop) {
        embeddedLoop = loop
    }

    /// Two channels connected to each other, as the two ends of a TCP connection.
    package static func pair(
        loop: EmbeddedLoop,
        peerLoop: EmbeddedLoop? = nil
    ) -> (EmbeddedByteChannel, EmbeddedByteChannel) {
        let first = EmbeddedByteChannel(loop: loop)
        let second = EmbeddedByteChannel(loop: peerLoop ?? loop)
        first.peer = second
        second.peer = first
        return (first, second)
    }

    // MARK: ByteChannel

    package var loop: any ChannelLoop { embeddedLoop }

    package var handler: (any ByteChannelHandler)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    package var pendingWriteBytes: Int {
        if let peer { return peer.unreadByteCount }
        return state.withLock { $0.outbound.count }
    }

    package var maximumReadSize: Int {
        get { state.withLock { $0.maximumReadSize } }
        set { state.withLock { $0.maximumReadSize = max(1, newValue) } }
    }

    package var isClosed: Bool { state.withLock { $0.closed } }

    package func setReading(_ enabled: Bool) {
        let deliver = state.withLock { state -> Bool in
            state.reading = enabled
            return enabled && !state.closed && queueDelivery(&state)
        }
        if deliver { scheduleDelivery() }
    }

    package func write(_ bytes: [UInt8]) {
        let accepted = state.withLock { state -> Bool in
            guard !state.closed, !state.outputShut, !bytes.isEmpty else { return false }
            state.written.append(bytes)
            if peer == nil { state.outbound.append(contentsOf: bytes) }
            return true
        }
        guard accepted, let peer else { return }
        peer.receive(bytes)
    }

    package func shutdownOutput() {
        let shut = state.withLock { state -> Bool in
            guard !state.closed, !state.outputShut else { return false }
            state.outputShut = true
            return true
        }
        if shut { peer?.receiveEnd() }
    }

    package func closeGracefully() {
        let closeNow = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closeWhenDrained = true
            return true
        }
        if closeNow, pendingWriteBytes == 0 { close(error: nil) }
    }

    package func close(error: (any Error)?) {
        let handler = state.withLock { state -> (any ByteChannelHandler)?? in
            guard !state.closed else { return nil }
            state.closed = true
            state.closeError = error
            state.inbound = []
            state.outbound = []
            defer { state.handler = nil }
            return .some(state.handler)
        }
        guard let handler else { return }
        peer?.receiveEnd()
        handler?.channel(self, didCloseWith: error)
    }

    // MARK: The test's end

    /// Every write of the handler so far, in order (of a pair too).
    package var written: [[UInt8]] { state.withLock { $0.written } }

    /// Takes the bytes written since the last call (not of a pair, whose peer takes them);
    /// once they are taken, the handler is told the channel drained.
    package func readOutbound() -> [UInt8] {
        let taken = state.withLock { state -> [UInt8] in
            defer { state.outbound = [] }
            return state.outbound
        }
        if !taken.isEmpty { embeddedLoop.execute { self.drained() } }
        return taken
    }

    /// Whether the handler shut its output (``shutdownOutput()``), or closed.
    package var isOutputShut: Bool { state.withLock { $0.outputShut || $0.closed } }

    /// The error the channel closed with, once closed (`nil` for an orderly close).
    package var closeError: (any Error)? { state.withLock { $0.closeError } }

    /// Bytes from the other end: the handler reads them when the loop runs and reading is on.
    package func writeInbound(_ bytes: [UInt8]) {
        receive(bytes)
    }

    /// The other end finished sending: once the bytes before it are read, the handler gets
    /// ``ByteChannelHandler/channelDidReadEndOfFile(_:)``.
    package func writeInboundEnd() {
        receiveEnd()
    }

    /// The transport fails with `error`: when the loop runs, the channel closes and the
    /// handler gets `error`.
    package func fail(with error: any Error) {
        embeddedLoop.execute { self.close(error: error) }
    }

    // MARK: Delivery

    /// Bytes waiting for this side's handler.
    private var unreadByteCount: Int { state.withLock { $0.inbound.count } }

    private func receive(_ bytes: [UInt8]) {
        let deliver = state.withLock { state -> Bool in
            guard !state.closed, !state.inboundEnded else { return false }
            state.inbound.append(contentsOf: bytes)
            return queueDelivery(&state)
        }
        if deliver { scheduleDelivery() }
    }

    private func receiveEnd() {
        let deliver = state.withLock { state -> Bool in
            guard !state.closed, !state.inboundEnded else { return false }
            state.inboundEnded = true
            return queueDelivery(&state)
        }
        if deliver { scheduleDelivery() }
    }

    /// Claims the one queued delivery, when one is worth running.
    private func queueDelivery(_ state: inout State) -> Bool {
        guard state.reading, !state.deliveryQueued else { return false }
        state.deliveryQueued = true
        return true
    }

    private func scheduleDelivery() {
        embeddedLoop.execute { self.deliver() }
    }

    /// Hands the handler what waits, a read at a time, while reading stays on; then the end
    /// of the stream once everything before it was read.
    private func deliver() {
        state.withLock { $0.deliveryQueued = false }
        var tookBytes = false
        while true {
            enum Step {
                case read([UInt8], any ByteChannelHandler)
                case end(any ByteChannelHandler)
                case stop
            }
            let step = state.withLock { state -> Step in
                guard state.reading, !state.closed, let handler = state.handler else { return .stop }
                if !state.inbound.isEmpty {
                    let count = min(state.maximumReadSize, state.inbound.count)
                    let chunk = Array(state.inbound.prefix(count))
                    state.inbound.removeFirst(count)
                    return .read(chunk, handler)
                }
                if state.inboundEnded, !state.endDelivered {
                    state.endDelivered = true
                    return .end(handler)
                }
                return .stop
            }
            switch step {
            case .read(let chunk, let handler):
                tookBytes = true
                chunk.withUnsafeBytes { handler.channel(self, didRead: $0) }
            case .end(let handler):
                handler.channelDidReadEndOfFile(self)
            case .stop:
                if tookBytes, unreadByteCount == 0, let peer {
                    peer.embeddedLoop.execute { peer.drained() }
                }
                return
            }
        }
    }

    /// Everything written has been taken by the other end.
    private func drained() {
        guard pendingWriteBytes == 0 else { return }
        let (handler, close) = state.withLock { state -> ((any ByteChannelHandler)?, Bool) in
            guard !state.closed else { return (nil, false) }
            return (state.handler, state.closeWhenDrained)
        }
        if close {
            self.close(error: nil)
        } else {
            handler?.channelDidDrain(self)
        }
    }
}
