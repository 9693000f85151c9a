import CastNetCore
public import CastTime

/// A small HTTP/1.1 server: keep-alive, `GET`/`HEAD`/`POST` routes, single byte ranges
/// for file bodies, bounded request sizes, a request timeout against slow clients, and
/// optional TLS. Used for a device's setup endpoints and for serving media files.
public final class HTTPServer: Sendable {
    private let source: AcceptSource

    /// The bound address; its port is the one chosen when binding to port 0.
    public var localAddress: SocketAddress { source.localAddress }

    /// Binds to `address` and starts serving `routes`.
    /// - Parameters:
    ///   - address: the local address, such as `127.0.0.2:8008`; port 0 picks a free port.
    ///   - tls: TLS settings for HTTPS (a device's setup endpoint on 8443), or `nil`.
    ///   - routes: the handlers.
    ///   - configuration: limits and timeouts.
    ///   - clock: the clock for request and handshake timeouts.
    ///   - group: the loops that connections run on.
    ///   - admit: decides from the peer's address whether a new connection is served;
    ///     refused connections are closed before any byte is read. `nil` admits every peer.
    /// - Throws: ``TCPError`` or ``TLSError``.
    public convenience init(
        address: SocketAddress,
        tls: TLSServerConfiguration? = nil,
        routes: HTTPRoutes,
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared,
        admit: (@Sendable (SocketAddress) -> Bool)? = nil
    ) throws {
        let context = try tls.map { configuration throws(TLSError) in try TLSContext(server: configuration) }
        try self.init(
            source: .bind(address, backlog: 256, group: group, clock: clock),
            context: context,
            routes: routes,
            configuration: configuration,
            clock: clock,
            admit: admit
        )
    }

    /// Serves `routes` to the connections that `port` receives for `address`, as a server
    /// bound to that address would.
    /// - Parameters:
    ///   - port: the shared port.
    ///   - address: the loopback address served, such as `127.0.0.2`.
    ///   - tls: TLS settings for HTTPS, or `nil`.
    ///   - routes: the handlers.
    ///   - configuration: limits and timeouts.
    ///   - clock: the clock for request and handshake timeouts.
    /// - Throws: ``TCPError`` (`addressInUse` when `port` already serves `address`,
    ///   `invalidAddress`) or ``TLSError``.
    public convenience init(
        on port: LoopbackPortListener,
        address: String,
        tls: TLSServerConfiguration? = nil,
        routes: HTTPRoutes,
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        clock: any CastClock = SystemCastClock()
    ) throws {
        let context = try tls.map { configuration throws(TLSError) in try TLSContext(server: configuration) }
        try self.init(
            source: .shared(port, try SocketAddress(ipAddress: address, port: port.port)),
            context: context,
            routes: routes,
            configuration: configuration,
            clock: clock,
            admit: nil
        )
    }

    private init(
        source: AcceptSource,
        context: TLSContext?,
        routes: HTTPRoutes,
        configuration: HTTPServerConfiguration,
        clock: any CastClock,
        admit: (@Sendable (SocketAddress) -> Bool)?
    ) throws(TCPError) {
        self.source = source
        do {
            try source.start(limit: configuration.maximumConnections) { stream in
                if let admit {
                    guard let peer = stream.remoteAddress, admit(peer) else {
                        stream.loop.execute { stream.close(error: nil) }
                        return
                    }
                }
                ChannelConnector.activateAccepted(stream, tls: context, clock: clock) { result in
                    guard case .success(let channel) = result else { return }
                    _ = HTTPServerConnection(
                        channel: channel,
                        routes: routes,
                        configuration: configuration,
                        clock: clock
                    )
                }
            }
        } catch {
            source.close()
            throw error
        }
    }

    deinit { source.close() }

    /// Stops accepting connections; requests in progress finish.
    public func close() {
        source.close()
    }

    /// ``close()``, returning once the listening socket is closed: its port can be bound
    /// again as soon as this returns.
    public func closeAndWait() async {
        await source.closeAndWait()
    }
}
