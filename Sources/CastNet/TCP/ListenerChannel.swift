import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A listening socket whose accepted connections are spread over an event loop group.
///
/// `@unchecked Sendable`: mutable state is used only on `loop.queue`.
final class ListenerChannel: @unchecked Sendable {
    let loop: EventLoop
    let localAddress: SocketAddress
    private let group: EventLoopGroup
    private let clock: any CastClock
    private let fd: Int32
    private var source: (any DispatchSourceRead)?
    private var resumed = false
    private var closed = false
    private var acceptHandler: (@Sendable (StreamChannel) -> Void)?

    /// Binds and listens on `address` (port 0 picks a free port), with `SO_REUSEADDR`.
    init(address: SocketAddress, backlog: Int, group: EventLoopGroup, clock: any CastClock) throws(TCPError) {
        let fd = try Socket.makeStream(family: address.familyValue)
        Socket.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        if address.family == .ipv6 {
            Socket.setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1)
        }
        do {
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
            let source = DispatchSource.makeReadSource(fileDescriptor: self.fd, queue: self.loop.queue)
            let fd = self.fd
            source.setEventHandler { self.acceptReady() }
            source.setCancelHandler { Socket.close(fd) }
            self.source = source
            self.resumed = true
            source.resume()
        }
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
        guard resumed, let source else { return }
        resumed = false
        source.suspend()
        loop.queue.asyncAfter(deadline: .now() + .milliseconds(100)) {
            guard !self.closed, !self.resumed, let source = self.source else { return }
            self.resumed = true
            source.resume()
        }
    }

    /// Stops listening and closes the socket.
    func close() {
        loop.execute {
            guard !self.closed else { return }
            self.closed = true
            self.acceptHandler = nil
            if let source = self.source {
                source.cancel()
                if !self.resumed { source.resume() }
                self.source = nil
            } else {
                Socket.close(self.fd)
            }
        }
    }
}
