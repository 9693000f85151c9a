import CastCore
import CastNetCore
import CastSync
import CastTime

/// The mDNS sockets of one I/O owner: port 5353 on each chosen interface, IPv4 and IPv6,
/// joined to 224.0.0.251 / ff02::fb on that interface only, multicast sent through it.
///
/// Datagrams that did not arrive on the socket's own interface are dropped, as are those
/// that are not valid DNS messages.
final class MDNSTransport: MDNSDatagramTransport {
    /// A decoded message and where it came from.
    typealias Received = MDNSDatagram

    static let groupV4 = IPAddress.v4(IPv4Address(224, 0, 0, 251))
    static let groupV6 = IPAddress.v6(IPv6Address("ff02::fb")!)
    /// The receive buffer asked for on every socket.
    static let receiveBufferSize = 1 << 20

    private struct Endpoint: Sendable {
        var interface: NetworkInterface
        var socket: UDPSocket
    }

    private let endpoints: [Endpoint]
    /// The port of the group, where multicasts go.
    private let port: UInt16
    /// The interfaces the transport runs on.
    let interfaces: [NetworkInterface]

    /// Opens the sockets.
    /// - Parameters:
    ///   - interfaces: the interfaces to run on.
    ///   - useIPv4: whether to open IPv4 sockets (where the interface has an IPv4 address).
    ///   - useIPv6: whether to open IPv6 sockets too (where the interface has an IPv6 address;
    ///     an IPv6 socket that cannot join the group is left out).
    ///   - port: the port (5353; tests may use another).
    ///   - loop: the loop that watches the sockets; `handler` runs on its thread.
    /// - Throws: ``UDPSocketError`` when no socket could be opened, or an IPv4 one failed.
    init(
        interfaces: [NetworkInterface],
        useIPv4: Bool = true,
        useIPv6: Bool,
        port: UInt16 = 5353,
        loop: EventLoop,
        handler: @escaping @Sendable (Received) -> Void
    ) throws(UDPSocketError) {
        var endpoints: [Endpoint] = []
        // Why each interface that got no socket was left out, for the error below.
        var rejected: [(name: String, reason: String)] = []
        do {
            for interface in interfaces {
                let opened = endpoints.count
                if useIPv4, !interface.ipv4Addresses.isEmpty {
                    let socket = try UDPSocket(
                        family: .v4,
                        port: port,
                        reuseAddress: true,
                        device: interface,
                        loop: loop
                    )
                    endpoints.append(Endpoint(interface: interface, socket: socket))
                    try socket.joinGroup(Self.groupV4, on: interface)
                    try socket.setMulticastInterface(interface, loopback: true)
                }
                if useIPv6, !interface.ipv6Addresses.isEmpty {
                    do {
                        let socket = try UDPSocket(
                            family: .v6,
                            port: port,
                            reuseAddress: true,
                            device: interface,
                            loop: loop
                        )
                        do {
                            try socket.joinGroup(Self.groupV6, on: interface)
                            try socket.setMulticastInterface(interface, loopback: true)
                            endpoints.append(Endpoint(interface: interface, socket: socket))
                        } catch {
                            socket.close()
                            rejected.append((interface.name, "IPv6 group not joined: \(error)"))
                        }
                    } catch {
                        rejected.append((interface.name, "IPv6 socket not opened: \(error)"))
                    }
                }
                if endpoints.count == opened, !rejected.contains(where: { $0.name == interface.name }) {
                    rejected.append(
                        (interface.name, Self.unusableReason(interface, useIPv4: useIPv4, useIPv6: useIPv6))
                    )
                }
            }
        } catch {
            for endpoint in endpoints { endpoint.socket.close() }
            throw error
        }
        guard !endpoints.isEmpty else { throw .noUsableInterface(rejected) }
        self.endpoints = endpoints
        self.port = port
        self.interfaces = interfaces
        for endpoint in endpoints {
            // A responder with hundreds of services answers a browse query with a burst of
            // messages; the default buffer holds only part of one.
            endpoint.socket.setReceiveBufferSize(Self.receiveBufferSize)
            let index = endpoint.interface.index
            endpoint.socket.startReceiving { datagram in
                guard datagram.interfaceIndex == 0 || datagram.interfaceIndex == index, datagram.source.port != 0,
                    let message = try? DNSMessage(decoding: datagram.bytes)
                else { return }
                handler(Received(message: message, source: datagram.source, interfaceIndex: index))
            }
        }
    }

    /// Why `interface` offers no address of the families in use.
    private static func unusableReason(_ interface: NetworkInterface, useIPv4: Bool, useIPv6: Bool) -> String {
        switch (useIPv4, useIPv6) {
        case (true, true): "no address"
        case (true, false): interface.ipv6Addresses.isEmpty ? "no IPv4 address" : "IPv6 only, and IPv6 is off"
        case (false, true): "no IPv6 address"
        case (false, false): "neither IPv4 nor IPv6 is on"
        }
    }

    /// The families and interfaces of the open sockets, for diagnostics.
    var socketDescriptions: [String] {
        endpoints.map { "\($0.interface.name)/\($0.socket.family == .v4 ? "IPv4" : "IPv6")" }
    }

    /// Multicasts a message on every socket. Failures on single sockets are ignored (an
    /// interface may have gone down).
    func sendMulticast(_ message: DNSMessage) {
        guard let bytes = try? message.encoded() else { return }
        for endpoint in endpoints {
            let destination: UDPEndpoint =
                switch endpoint.socket.family {
                case .v4: UDPEndpoint(address: Self.groupV4, port: port)
                case .v6: UDPEndpoint(address: Self.groupV6, port: port, scopeID: endpoint.interface.index)
                }
            _ = try? endpoint.socket.send(bytes, to: destination)
        }
    }

    /// Sends a message to one peer through the socket of the interface it was heard on.
    func sendUnicast(_ message: DNSMessage, to destination: UDPEndpoint, interfaceIndex: UInt32) {
        guard let bytes = try? message.encoded() else { return }
        let family: UDPSocket.Family =
            switch destination.address {
            case .v4: .v4
            case .v6: .v6
            }
        guard
            let endpoint = endpoints.first(where: {
                $0.socket.family == family && $0.interface.index == interfaceIndex
            })
        else { return }
        try? endpoint.socket.send(bytes, to: destination)
    }

    /// Closes every socket.
    func close() {
        for endpoint in endpoints { endpoint.socket.close() }
    }
}

/// A one-shot timer on the owner's loop that can be moved to a new deadline.
final class MDNSTimer: Sendable {
    private struct State {
        var pending: CastTimer?
        var cancelled = false
    }

    /// Schedules an action on the owner's loop after a delay.
    typealias Scheduler = @Sendable (Duration, @escaping @Sendable () -> Void) -> CastTimer

    private let scheduler: Scheduler
    private let clock: any CastClock
    private let handler: @Sendable () -> Void
    private let state = Locked(State())

    /// Creates a timer whose `handler` runs on `loop`'s thread; deadlines are instants of `clock`.
    convenience init(loop: EventLoop, clock: any CastClock, handler: @escaping @Sendable () -> Void) {
        self.init(scheduler: { loop.schedule(after: $0, $1) }, clock: clock, handler: handler)
    }

    /// Creates a timer whose `handler` runs where `scheduler` runs it; deadlines are
    /// instants of `clock`.
    init(scheduler: @escaping Scheduler, clock: any CastClock, handler: @escaping @Sendable () -> Void) {
        self.scheduler = scheduler
        self.clock = clock
        self.handler = handler
    }

    /// Fires once at `deadline` on the owner's clock, or never when `nil`, replacing the
    /// deadline given before.
    func schedule(at deadline: CastInstant?) {
        let timer = deadline.map { scheduler(max($0 - clock.now, .zero), handler) }
        let (previous, keep) = state.withLock { state -> (CastTimer?, Bool) in
            guard !state.cancelled else { return (nil, false) }
            defer { state.pending = timer }
            return (state.pending, true)
        }
        previous?.cancel()
        if !keep { timer?.cancel() }
    }

    func cancel() {
        let pending = state.withLock { state -> CastTimer? in
            state.cancelled = true
            defer { state.pending = nil }
            return state.pending
        }
        pending?.cancel()
    }
}
