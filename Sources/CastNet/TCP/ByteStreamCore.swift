import CastNetCore
import CastSync

/// Adapts a ``ByteChannel`` to async `send`/`receive` with backpressure in both directions:
/// reading stops while `bufferLimit` bytes wait for a receiver, and `send` suspends while
/// more than `writeHighWatermark` bytes wait for the socket.
///
/// `@unchecked Sendable`: all mutable state is used only on the channel's loop thread.
final class ByteStreamCore: ByteChannelHandler, @unchecked Sendable {
    typealias ReceiveContinuation = HandOffContinuation<Result<[UInt8]?, any Error>>
    typealias SendContinuation = HandOffContinuation<Result<Void, any Error>>

    let channel: any NetworkByteChannel
    let loop: any ChannelLoop
    private let bufferLimit: Int
    private let writeHighWatermark: Int
    private var buffer: [UInt8] = []
    private var endOfFile = false
    private var closed = false
    private var failure: (any Error)?
    private var receiver: (maximum: Int, continuation: ReceiveContinuation)?
    private var senders: [SendContinuation] = []

    /// Takes over `channel`, which must be active; call on its loop.
    init(channel: any NetworkByteChannel, bufferLimit: Int = 256 * 1024, writeHighWatermark: Int = 256 * 1024) {
        self.channel = channel
        self.loop = channel.loop
        self.bufferLimit = bufferLimit
        self.writeHighWatermark = writeHighWatermark
        channel.handler = self
        channel.setReading(true)
    }

    // MARK: Requests (on the loop)

    func receive(maximum: Int, continuation: ReceiveContinuation) {
        if !buffer.isEmpty {
            continuation.resume(returning: .success(takeBuffered(maximum: maximum)))
            return
        }
        if let failure {
            continuation.resume(returning: .failure(failure))
        } else if endOfFile || closed {
            continuation.resume(returning: .success(nil))
        } else if receiver != nil {
            continuation.resume(
                returning: .failure(TCPError(code: .system, operation: "receive (another receive is pending)"))
            )
        } else {
            receiver = (maximum, continuation)
        }
    }

    private func takeBuffered(maximum: Int) -> [UInt8] {
        let count = min(max(1, maximum), buffer.count)
        let chunk: [UInt8]
        if count == buffer.count {
            chunk = buffer
            buffer = []
        } else {
            chunk = Array(buffer[0..<count])
            buffer.removeFirst(count)
        }
        if !closed && !endOfFile && buffer.count < bufferLimit { channel.setReading(true) }
        return chunk
    }

    func send(_ bytes: [UInt8], continuation: SendContinuation) {
        if closed {
            continuation.resume(returning: .failure(failure ?? TCPError.closed))
            return
        }
        channel.write(bytes)
        if closed {
            continuation.resume(returning: .failure(failure ?? TCPError.closed))
        } else if channel.pendingWriteBytes <= writeHighWatermark {
            continuation.resume(returning: .success(()))
        } else {
            senders.append(continuation)
        }
    }

    func shutdownOutput() {
        guard !closed else { return }
        channel.shutdownOutput()
    }

    func close() {
        guard !closed else { return }
        channel.closeGracefully()
    }

    // MARK: Channel events

    func channelDidBecomeActive(_ channel: any ByteChannel) {}

    func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        if let (maximum, continuation) = receiver {
            receiver = nil
            continuation.resume(returning: .success(takeBuffered(maximum: maximum)))
        }
        if buffer.count >= bufferLimit { channel.setReading(false) }
    }

    func channelDidReadEndOfFile(_ channel: any ByteChannel) {
        endOfFile = true
        if let (_, continuation) = receiver {
            receiver = nil
            continuation.resume(returning: .success(nil))
        }
    }

    func channelDidDrain(_ channel: any ByteChannel) {
        let waiting = senders
        senders = []
        for continuation in waiting { continuation.resume(returning: .success(())) }
    }

    func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?) {
        closed = true
        failure = error
        if let (_, continuation) = receiver {
            receiver = nil
            if let error {
                continuation.resume(returning: .failure(error))
            } else {
                continuation.resume(returning: .success(nil))
            }
        }
        let waiting = senders
        senders = []
        for continuation in waiting { continuation.resume(returning: .failure(error ?? TCPError.closed)) }
    }
}
