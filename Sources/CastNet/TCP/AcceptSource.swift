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
    func start(_ handler: @escaping @Sendable (StreamChannel) -> Void) throws(TCPError) {
        switch self {
        case .socket(let channel): channel.start(handler)
        case .shared(let listener, let address): try listener.route(address, to: handler)
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
