public import CastTime

/// A listening TCP socket, optionally serving TLS, that hands out accepted connections.
public final class TCPListener: Sendable {
    private let channel: ListenerChannel
    private let continuation: AsyncStream<TCPConnection>.Continuation

    /// The bound address; its port is the one chosen when binding to port 0.
    public var localAddress: SocketAddress { channel.localAddress }

    /// Accepted connections, after their TLS handshake when TLS is on. Connections whose
    /// handshake fails are closed and never appear. Ends when the listener closes.
    public let connections: AsyncStream<TCPConnection>

    /// Binds to `address` (port 0 picks a free port) and starts accepting.
    /// - Parameters:
    ///   - address: the local address, such as `127.0.0.5:0` or `[::1]:8009`.
    ///   - tls: the TLS server settings, or `nil` for plain TCP.
    ///   - backlog: the kernel's queue of connections not yet accepted; also the number of
    ///     accepted connections kept waiting for a reader of ``connections``.
    ///   - clock: the clock that times TLS handshakes.
    ///   - group: the loops that accepted connections run on.
    /// - Throws: ``TCPError`` (address in use, not available...) or ``TLSError`` for an
    ///   unusable certificate or key.
    public init(
        address: SocketAddress,
        tls: TLSServerConfiguration? = nil,
        backlog: Int = 256,
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared
    ) throws {
        let context = try tls.map { configuration throws(TLSError) in try TLSContext(server: configuration) }
        channel = try ListenerChannel(address: address, backlog: backlog, group: group, clock: clock)
        (connections, continuation) = AsyncStream.makeStream(
            of: TCPConnection.self,
            bufferingPolicy: .bufferingOldest(max(1, backlog))
        )
        let continuation = self.continuation
        channel.start { stream in
            ChannelConnector.activateAccepted(stream, tls: context, clock: clock) { result in
                guard case .success(let channel) = result else { return }
                let connection = TCPConnection(core: ByteStreamCore(channel: channel))
                if case .dropped = continuation.yield(connection) { connection.close() }
            }
        }
    }

    deinit {
        channel.close()
        continuation.finish()
    }

    /// Stops accepting and ends ``connections``; accepted connections stay open.
    public func close() {
        channel.close()
        continuation.finish()
    }

    /// ``close()``, returning once the listening socket is closed: its port can be bound
    /// again (or is refused) as soon as this returns.
    public func closeAndWait() async {
        continuation.finish()
        await channel.closeAndWait()
    }
}
