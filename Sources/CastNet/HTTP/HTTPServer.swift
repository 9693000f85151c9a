import CastTime

/// A small HTTP/1.1 server: keep-alive, `GET`/`HEAD`/`POST` routes, single byte ranges
/// for file bodies, bounded request sizes, a request timeout against slow clients, and
/// optional TLS. Used for a device's setup endpoints and for serving media files.
public final class HTTPServer: Sendable {
    private let channel: ListenerChannel

    /// The bound address; its port is the one chosen when binding to port 0.
    public var localAddress: SocketAddress { channel.localAddress }

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
    public init(
        address: SocketAddress,
        tls: TLSServerConfiguration? = nil,
        routes: HTTPRoutes,
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared,
        admit: (@Sendable (SocketAddress) -> Bool)? = nil
    ) throws {
        let context = try tls.map { configuration throws(TLSError) in try TLSContext(server: configuration) }
        channel = try ListenerChannel(address: address, backlog: 256, group: group, clock: clock)
        channel.start { stream in
            if let admit {
                guard let peer = stream.remoteAddress, admit(peer) else {
                    stream.loop.execute { stream.close(error: nil) }
                    return
                }
            }
            ChannelConnector.activateAccepted(stream, tls: context, clock: clock) { result in
                guard case .success(let channel) = result else { return }
                _ = HTTPServerConnection(channel: channel, routes: routes, configuration: configuration, clock: clock)
            }
        }
    }

    deinit { channel.close() }

    /// Stops accepting connections; requests in progress finish.
    public func close() {
        channel.close()
    }

    /// ``close()``, returning once the listening socket is closed: its port can be bound
    /// again as soon as this returns.
    public func closeAndWait() async {
        await channel.closeAndWait()
    }
}
