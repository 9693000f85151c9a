import CastTime

#if canImport(Glibc)
import Glibc
#endif

/// A listening socket whose accepted connections are spread over an event loop group.
///
/// `@unchecked Sendable`: mutable state is used only on the loop's thread.
final class ListenerChannel: IOHandler, @unchecked Sendable {
    let loop: EventLoop
    let localAddress: SocketAddress
    private let group: EventLoopGroup
    private let clock: any CastClock
    private let fd: Int32
    private var registered = false
    private var paused = false
    private var closed = false
    private var acceptHandler: (@Sendable (StreamChannel) -> Void)?

    /// Binds and listens on `address` (port 0 picks a free port), with `SO_REUSEADDR`.
    /// - Parameter interface: when set, only connections that arrive through this interface
    ///   are accepted (`SO_BINDTODEVICE`), which keeps a wildcard address off the network.
    init(
        address: SocketAddress,
        interface: String? = nil,
        backlog: Int,
        group: EventLoopGroup,
        clock: any CastClock
    ) throws(TCPError) {
        let fd = try Socket.makeStream(family: address.familyValue)
        Socket.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        if address.family == .ipv6 {
            Socket.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1)
        }
        do {
            if let interface { try Socket.bind(fd, toInterface: interface) }
            try Socket.bind(fd, to: address)
            try Socket.listen(fd, backlog: Int32(clamping: backlog))
        } catch {
            Socket.close(fd)
            throw error
        }
        self.fd = fd
        self.localAddress = Socket.localAddress(fd) ?? address
        self.group = group
        self.clock = clock
        self.loop = group.next()
    }

    /// Starts accepting; `handler` runs on the listener's loop with each new channel, not
    /// yet started (see ``ChannelConnector/activateAccepted(_:tls:clock:completion:)``).
    func start(_ handler: @escaping @Sendable (StreamChannel) -> Void) {
        loop.execute {
            guard !self.closed else { return }
            self.acceptHandler = handler
            do {
                try self.loop.register(self.fd, interest: .read, handler: self)
                self.registered = true
            } catch {
                self.closeNow()
            }
        }
    }

    func ioReady(readable: Bool, writable: Bool, hangup: Bool, error: Bool) {
        acceptReady()
    }

    private func acceptReady() {
        guard !closed else { return }
        for _ in 0..<64 {
            let client: Int32?
            do {
                client = try Socket.accept(fd)
            } catch {
                if error.code == .tooManyOpenFiles { pauseAccepting() }
                return
            }
            guard let client else { return }
            Socket.setNoDelay(client)
            let channel = StreamChannel(fd: client, loop: group.next(), clock: clock)
            acceptHandler?(channel)
        }
    }

    /// Out of descriptors: stop accepting for a moment instead of spinning on a socket
    /// that stays readable.
    private func pauseAccepting() {
        guard registered, !paused else { return }
        paused = true
        loop.update(fd, interest: [])
        loop.schedule(after: .milliseconds(100)) {
            guard !self.closed, self.paused else { return }
            self.paused = false
            self.loop.update(self.fd, interest: .read)
        }
    }

    /// Stops listening and closes the socket.
    func close() {
        loop.execute { self.closeNow() }
    }

    /// Stops listening and returns once the socket is closed, so its address and port can
    /// be bound again at once.
    func closeAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                self.closeNow()
                continuation.resume()
            }
        }
    }

    private func closeNow() {
        guard !closed else { return }
        closed = true
        acceptHandler = nil
        if registered { loop.deregister(fd) }
        registered = false
        Socket.close(fd)
    }
}
