import CastTime

/// Accepts Cast connections: TLS on a TCP port, then framing. A virtual Cast device
/// listens with one of these.
public final class CastListener: Sendable {
    private let channel: ListenerChannel
    private let continuation: AsyncStream<CastConnection>.Continuation

    /// The bound address; its port is the one chosen when binding to port 0.
    public var localAddress: SocketAddress { channel.localAddress }

    /// Accepted connections, after their TLS handshake, when no handler was given. Failed
    /// handshakes (a client speaking no TLS, a timeout) never appear.
    public let connections: AsyncStream<CastConnection>

    /// Binds to `address` and starts accepting.
    /// - Parameters:
    ///   - address: the local address, such as `127.0.0.2:8009`; port 0 picks a free port.
    ///   - tls: the device's certificate and key.
    ///   - configuration: limits of each accepted connection (its `tls` is not used).
    ///   - backlog: the kernel's queue of connections not yet accepted.
    ///   - clock: the clock for handshake timeouts.
    ///   - group: the loops that connections run on.
    ///   - handler: if given, receives each connection on its queue instead of
    ///     ``connections``; it can call ``CastConnection/setFrameHandler(_:)`` at once.
    /// - Throws: ``TCPError`` or ``TLSError``.
    public init(
        address: SocketAddress,
        tls: TLSServerConfiguration,
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        backlog: Int = 256,
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared,
        handler: (@Sendable (CastConnection) -> Void)? = nil
    ) throws {
        let context = try TLSContext(server: tls)
        channel = try ListenerChannel(address: address, backlog: backlog, group: group, clock: clock)
        (connections, continuation) = AsyncStream.makeStream(
            of: CastConnection.self,
            bufferingPolicy: .bufferingOldest(max(1, backlog))
        )
        if handler != nil { continuation.finish() }
        let continuation = self.continuation
        channel.start { stream in
            ChannelConnector.activateAccepted(stream, tls: context, clock: clock) { result in
                guard case .success(let channel) = result else { return }
                let connection = CastConnection(
                    core: CastConnectionCore(channel: channel, configuration: configuration, clock: clock)
                )
                if let handler {
                    handler(connection)
                } else if case .dropped = continuation.yield(connection) {
                    connection.close(reason: "too many connections waiting to be taken")
                }
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
    /// again as soon as this returns.
    public func closeAndWait() async {
        continuation.finish()
        await channel.closeAndWait()
    }
}
