import CastNetCore
public import CastTime

/// Accepts Cast connections: TLS on a TCP port, then framing. A virtual Cast device
/// listens with one of these.
public final class CastListener: Sendable {
    private let source: AcceptSource
    private let continuation: AsyncStream<CastConnection>.Continuation

    /// The bound address; its port is the one chosen when binding to port 0.
    public var localAddress: SocketAddress { source.localAddress }

    /// Accepted connections, after their TLS handshake, when no handler was given. Failed
    /// handshakes (a client speaking no TLS, a timeout) never appear.
    public let connections: AsyncStream<CastConnection>

    /// Binds to `address` and starts accepting.
    /// - Parameters:
    ///   - address: the local address, such as `127.0.0.2:8009`; port 0 picks a free port.
    ///   - tls: the device's certificate and key.
    ///   - configuration: limits of each accepted connection (its `tls` is not used).
    ///   - backlog: the kernel's queue of connections not yet accepted.
    ///   - maximumConnections: the most connections open at once, TLS handshakes included; a
    ///     further one is closed as it is accepted. `nil` for no limit.
    ///   - clock: the clock for handshake timeouts.
    ///   - group: the loops that connections run on.
    ///   - handler: if given, receives each connection on its queue instead of
    ///     ``connections``; it can call ``CastConnection/setFrameHandler(_:)`` at once.
    /// - Throws: ``TCPError`` or ``TLSError``.
    public convenience init(
        address: SocketAddress,
        tls: TLSServerConfiguration,
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        backlog: Int = 256,
        maximumConnections: Int? = nil,
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared,
        handler: (@Sendable (CastConnection) -> Void)? = nil
    ) throws {
        let context = try TLSContext(server: tls)
        try self.init(
            source: .bind(address, backlog: backlog, group: group, clock: clock),
            context: context,
            configuration: configuration,
            backlog: backlog,
            maximumConnections: maximumConnections,
            clock: clock,
            handler: handler
        )
    }

    /// Accepts the connections that `port` receives for `address`, as a listener of its own
    /// on that address would.
    /// - Parameters:
    ///   - port: the shared port.
    ///   - address: the loopback address served, such as `127.0.0.2`.
    ///   - tls: the device's certificate and key.
    ///   - configuration: limits of each accepted connection (its `tls` is not used).
    ///   - maximumConnections: the most connections open at once, TLS handshakes included; a
    ///     further one is closed as it is accepted. `nil` for no limit.
    ///   - clock: the clock for handshake timeouts.
    ///   - handler: if given, receives each connection instead of ``connections``.
    /// - Throws: ``TCPError`` (`addressInUse` when `port` already serves `address`,
    ///   `invalidAddress`) or ``TLSError``.
    public convenience init(
        on port: LoopbackPortListener,
        address: String,
        tls: TLSServerConfiguration,
        configuration: CastConnectionConfiguration = CastConnectionConfiguration(),
        maximumConnections: Int? = nil,
        clock: any CastClock = SystemCastClock(),
        handler: (@Sendable (CastConnection) -> Void)? = nil
    ) throws {
        let context = try TLSContext(server: tls)
        try self.init(
            source: .shared(port, try SocketAddress(ipAddress: address, port: port.port)),
            context: context,
            configuration: configuration,
            backlog: 256,
            maximumConnections: maximumConnections,
            clock: clock,
            handler: handler
        )
    }

    private init(
        source: AcceptSource,
        context: TLSContext,
        configuration: CastConnectionConfiguration,
        backlog: Int,
        maximumConnections: Int?,
        clock: any CastClock,
        handler: (@Sendable (CastConnection) -> Void)?
    ) throws(TCPError) {
        self.source = source
        (connections, continuation) = AsyncStream.makeStream(
            of: CastConnection.self,
            bufferingPolicy: .bufferingOldest(max(1, backlog))
        )
        if handler != nil { continuation.finish() }
        let continuation = self.continuation
        do {
            try source.start(limit: maximumConnections) { stream in
                ChannelConnector.activateAccepted(stream, tls: context, clock: clock) { result in
                    guard case .success(let channel) = result else { return }
                    let connection = CastConnection(
                        core: CastConnectionCore(channel: channel, limits: configuration.limits, clock: clock),
                        socket: channel
                    )
                    if let handler {
                        handler(connection)
                    } else if case .dropped = continuation.yield(connection) {
                        connection.close(reason: "too many connections waiting to be taken")
                    }
                }
            }
        } catch {
            source.close()
            continuation.finish()
            throw error
        }
    }

    deinit {
        source.close()
        continuation.finish()
    }

    /// Stops accepting and ends ``connections``; accepted connections stay open.
    public func close() {
        source.close()
        continuation.finish()
    }

    /// ``close()``, returning once the listening socket is closed: its port can be bound
    /// again as soon as this returns.
    public func closeAndWait() async {
        continuation.finish()
        await source.closeAndWait()
    }
}
