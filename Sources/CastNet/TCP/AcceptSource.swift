import CastNetCore
import CastSync
import CastTime

/// Where a listener's connections come from: a socket of its own, or its address's share of
/// a ``LoopbackPortListener``.
enum AcceptSource: Sendable {
    case socket(ListenerChannel)
    case shared(LoopbackPortListener, SocketAddress)

    /// Binds `address` with a socket of its own.
    static func bind(
        _ address: SocketAddress,
        backlog: Int,
        group: EventLoopGroup,
        clock: any CastClock
    ) throws(TCPError) -> AcceptSource {
        .socket(try ListenerChannel(address: address, backlog: backlog, group: group, clock: clock))
    }

    /// The listening address: the socket's, or the shared port at `address`.
    var localAddress: SocketAddress {
        switch self {
        case .socket(let channel): channel.localAddress
        case .shared(let listener, let address): address.withPort(listener.port)
        }
    }

    /// Starts handing accepted channels to `handler` (on a loop, not yet started).
    /// - Throws: ``TCPError/Code/addressInUse`` when a shared port already routes the address.
    /// Starts accepting: `handler` gets each new channel.
    /// - Parameter limit: the most accepted connections open at once (handshakes included);
    ///   a further one is closed as it is accepted, before a byte is read. `nil`: no limit.
    func start(limit: Int? = nil, _ handler: @escaping @Sendable (StreamChannel) -> Void) throws(TCPError) {
        var accept = handler
        if let limit {
            let open = Locked(0)
            accept = { channel in
                let admitted = open.withLock { count -> Bool in
                    guard count < limit else { return false }
                    count += 1
                    return true
                }
                guard admitted else {
                    channel.loop.execute { channel.close(error: nil) }
                    return
                }
                channel.onClose { open.withLock { $0 -= 1 } }
                handler(channel)
            }
        }
        switch self {
        case .socket(let channel): channel.start(accept)
        case .shared(let listener, let address): try listener.route(address, to: accept)
        }
    }

    func close() {
        switch self {
        case .socket(let channel): channel.close()
        case .shared(let listener, let address): listener.removeRoute(address)
        }
    }

    func closeAndWait() async {
        switch self {
        case .socket(let channel): await channel.closeAndWait()
        case .shared(let listener, let address): listener.removeRoute(address)
        }
    }
}
