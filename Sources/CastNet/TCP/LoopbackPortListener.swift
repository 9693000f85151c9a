import CastNetCore
import CastSync
public import CastTime

#if canImport(Glibc)
import Glibc
#endif

/// One listening socket on a port for every loopback address at once, handing each
/// connection to the listener registered for the address it was made to.
///
/// A virtual device listens on three ports of its own address, so 10,000 devices would need
/// 30,000 listening sockets, more than a process may open on most machines. Bound to the
/// IPv4 wildcard address but only to the loopback interface (`SO_BINDTODEVICE`), one of these
/// serves `127.0.0.2:8009` to `127.0.39.17:8009` with a single descriptor and stays
/// unreachable from the network. Connections to an address nobody registered are closed at
/// once.
///
/// ```swift
/// let castPort = try LoopbackPortListener(port: 8009)
/// let listener = try CastListener(on: castPort, address: "127.0.0.2", tls: tls) { connection in … }
/// ```
public final class LoopbackPortListener: Sendable {
    /// The port, the chosen one when 0 was asked for.
    public var port: Int { channel.localAddress.port }

    private let channel: ListenerChannel
    private let routes = Locked<[SocketAddress: @Sendable (StreamChannel) -> Void]>([:])

    /// Binds the loopback interface's IPv4 addresses on `port` and starts accepting.
    /// - Parameters:
    ///   - port: the port; 0 picks a free one.
    ///   - interface: the loopback interface's name.
    ///   - backlog: the kernel's queue of connections not yet accepted, shared by every
    ///     address (a fleet's senders all connect at once).
    ///   - clock: the clock of accepted channels.
    ///   - group: the loops that connections run on.
    /// - Throws: ``TCPError``: the port is in use, or the process may not bind to an
    ///   interface (`SO_BINDTODEVICE` needs `CAP_NET_RAW` before Linux 5.7).
    public init(
        port: Int,
        interface: String = "lo",
        backlog: Int = 4096,
        clock: any CastClock = SystemCastClock(),
        group: EventLoopGroup = .shared
    ) throws(TCPError) {
        let address = try SocketAddress(ipAddress: "0.0.0.0", port: port)
        channel = try ListenerChannel(
            address: address,
            interface: interface,
            backlog: backlog,
            group: group,
            clock: clock
        )
        let routes = self.routes
        channel.start { stream in
            let destination = stream.localAddress.map { $0.withPort(0) }
            let route = destination.flatMap { address in routes.withLock { $0[address] } }
            guard let route else {
                stream.loop.execute { stream.close(error: nil) }
                return
            }
            route(stream)
        }
    }

    deinit { channel.close() }

    /// Sends connections made to `address` (any port: this listener's) to `handler`.
    /// - Throws: ``TCPError/Code/addressInUse`` when the address already has a handler.
    func route(_ address: SocketAddress, to handler: @escaping @Sendable (StreamChannel) -> Void) throws(TCPError) {
        let key = address.withPort(0)
        let added = routes.withLock { routes in
            guard routes[key] == nil else { return false }
            routes[key] = handler
            return true
        }
        guard added else {
            throw TCPError(code: .addressInUse, operation: "bind", address: address.withPort(port).description)
        }
    }

    /// Stops sending connections made to `address` anywhere; new ones are closed.
    func removeRoute(_ address: SocketAddress) {
        _ = routes.withLock { $0.removeValue(forKey: address.withPort(0)) }
    }

    /// Stops listening; connections already handed out stay open.
    public func close() {
        routes.withLock { $0 = [:] }
        channel.close()
    }

    /// ``close()``, returning once the socket is closed and the port can be bound again.
    public func closeAndWait() async {
        routes.withLock { $0 = [:] }
        await channel.closeAndWait()
    }
}
