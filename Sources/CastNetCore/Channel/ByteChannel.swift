/// Receives the events of a ``ByteChannel``, always on the channel's loop.
package protocol ByteChannelHandler: AnyObject, Sendable {
    /// The channel is connected and, for TLS, the handshake is done.
    func channelDidBecomeActive(_ channel: any ByteChannel)
    /// Bytes arrived. The buffer is valid only during the call.
    func channel(_ channel: any ByteChannel, didRead bytes: UnsafeRawBufferPointer)
    /// The peer finished sending (half-close); writing may go on.
    func channelDidReadEndOfFile(_ channel: any ByteChannel)
    /// Every queued write has been handed to the kernel.
    func channelDidDrain(_ channel: any ByteChannel)
    /// The channel closed, with the error that closed it or `nil` for an orderly close.
    /// Called exactly once; no event follows.
    func channel(_ channel: any ByteChannel, didCloseWith error: (any Error)?)
}

/// A bidirectional byte stream bound to one loop: a TCP socket, TLS over one (`CastNet`), or
/// a channel in memory (`CastNetEmbedded`).
///
/// Every member must be used on ``loop`` only.
package protocol ByteChannel: AnyObject, Sendable {
    /// The loop that runs this channel.
    var loop: any ChannelLoop { get }
    /// Where events go. The channel keeps the handler alive until it closes.
    var handler: (any ByteChannelHandler)? { get set }
    /// Bytes accepted by ``write(_:)`` and not yet handed to the kernel.
    var pendingWriteBytes: Int { get }
    /// The largest number of bytes delivered by one read event.
    var maximumReadSize: Int { get set }
    /// `true` once the channel has closed.
    var isClosed: Bool { get }

    /// Starts or stops reading from the peer. Stopping is how a slow consumer pushes back.
    func setReading(_ enabled: Bool)
    /// Queues bytes for sending.
    func write(_ bytes: [UInt8])
    /// Queues several messages for sending at once. A TLS channel puts each in records of
    /// its own, so a peer that reads one message per readable event (PyChromecast) never
    /// finds a second message already decrypted and waiting in its TLS buffer.
    func write(messages: [[UInt8]])
    /// Sends the end of the stream once queued writes are out (TCP half-close).
    func shutdownOutput()
    /// Flushes queued writes, then closes; gives up after a grace period.
    func closeGracefully()
    /// Closes at once, dropping queued writes, and reports `error` to the handler.
    func close(error: (any Error)?)
}

extension ByteChannel {
    package func write(messages: [[UInt8]]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(messages.reduce(0) { $0 + $1.count })
        for message in messages { bytes.append(contentsOf: message) }
        write(bytes)
    }
}
