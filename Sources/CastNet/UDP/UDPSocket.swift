package import CastCore
package import CastNetCore
import CastSync
import Glibc

/// A received datagram.
package struct UDPDatagram: Sendable {
    /// The payload.
    package var bytes: [UInt8]
    /// The sender.
    package var source: UDPEndpoint
    /// The index of the interface the datagram arrived on, or 0 when unknown.
    package var interfaceIndex: UInt32
}

/// A non-blocking UDP socket watched by an ``EventLoop``, like the TCP connections.
///
/// Built for mDNS: address reuse so several programs share port 5353, multicast group
/// membership on one chosen interface, the outgoing multicast interface, loopback control
/// and a hop limit of 255. Each datagram is delivered with the interface it arrived on.
/// No thread is dedicated to the socket: its datagrams are read and handled on its loop's thread.
package final class UDPSocket: Sendable {
    /// The address family.
    package enum Family: Sendable {
        case v4
        case v6
    }

    package let family: Family
    private let fd: Int32
    private let loop: EventLoop
    private let state = Locked<State>(State())

    private struct State {
        var started = false
        var closed = false
    }

    /// Opens a socket and binds it to `port` on the wildcard address.
    ///
    /// - Parameters:
    ///   - family: IPv4 or IPv6 (an IPv6 socket is IPv6-only).
    ///   - port: the local port; 0 picks an ephemeral one.
    ///   - reuseAddress: set `SO_REUSEADDR` and `SO_REUSEPORT` so other sockets may bind the same port.
    ///   - device: when given, bind the socket to this interface (`SO_BINDTODEVICE`) where allowed,
    ///     so it only receives from and sends through it.
    ///   - loop: the loop that watches the socket; received datagrams are delivered on its thread.
    /// - Throws: ``UDPSocketError``.
    package init(
        family: Family,
        port: UInt16,
        reuseAddress: Bool,
        device: NetworkInterface? = nil,
        loop: EventLoop = EventLoopGroup.shared.next()
    ) throws(UDPSocketError) {
        self.family = family
        let domain = family == .v4 ? AF_INET : AF_INET6
        let fd = socket(
            domain,
            Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard fd >= 0 else { throw UDPSocketError(.create, errno: errno) }
        self.fd = fd
        self.loop = loop
        do {
            if reuseAddress {
                try setOption(SOL_SOCKET, SO_REUSEADDR, Int32(1), name: "SO_REUSEADDR")
                try setOption(SOL_SOCKET, SO_REUSEPORT, Int32(1), name: "SO_REUSEPORT")
            }
            if let device {
                // Not permitted everywhere without privileges; the interface filter on
                // received datagrams still applies when this fails.
                var name = Array(device.name.utf8CString)
                _ = setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, &name, socklen_t(name.count))
            }
            switch family {
            case .v4:
                try setOption(Int32(IPPROTO_IP), IP_PKTINFO, Int32(1), name: "IP_PKTINFO")
                try setOption(Int32(IPPROTO_IP), IP_TTL, Int32(255), name: "IP_TTL")
                // Receive only the groups this socket joined, not those of every socket on the port.
                try setOption(Int32(IPPROTO_IP), IP_MULTICAST_ALL, Int32(0), name: "IP_MULTICAST_ALL")
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = port.bigEndian
                address.sin_addr = in_addr(s_addr: INADDR_ANY)
                try bind(&address, MemoryLayout<sockaddr_in>.size)
            case .v6:
                try setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(1), name: "IPV6_V6ONLY")
                try setOption(Int32(IPPROTO_IPV6), IPV6_RECVPKTINFO, Int32(1), name: "IPV6_RECVPKTINFO")
                try setOption(Int32(IPPROTO_IPV6), IPV6_UNICAST_HOPS, Int32(255), name: "IPV6_UNICAST_HOPS")
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                try bind(&address, MemoryLayout<sockaddr_in6>.size)
            }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// The local port the socket is bound to.
    package var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return 0 }
        return Self.endpoint(from: storage)?.port ?? 0
    }

    /// Asks for a receive buffer of `bytes` (the kernel may cap it), so that a burst of
    /// datagrams is not dropped while the handler catches up. Best effort: returns whether
    /// the option was accepted.
    @discardableResult
    package func setReceiveBufferSize(_ bytes: Int) -> Bool {
        (try? setOption(SOL_SOCKET, SO_RCVBUF, Int32(clamping: bytes), name: "SO_RCVBUF")) != nil
    }

    /// Joins a multicast group on one interface.
    package func joinGroup(_ group: IPAddress, on interface: NetworkInterface) throws(UDPSocketError) {
        try changeMembership(group, on: interface, join: true)
    }

    /// Leaves a multicast group on one interface.
    package func leaveGroup(_ group: IPAddress, on interface: NetworkInterface) throws(UDPSocketError) {
        try changeMembership(group, on: interface, join: false)
    }

    /// Chooses the interface outgoing multicast leaves through, sets the multicast hop limit
    /// to 255 and whether this host's own sockets receive what is sent.
    package func setMulticastInterface(_ interface: NetworkInterface, loopback: Bool) throws(UDPSocketError) {
        switch family {
        case .v4:
            var request = ip_mreqn()
            request.imr_address = interface.ipv4Addresses.first?.inAddr ?? in_addr(s_addr: INADDR_ANY)
            request.imr_ifindex = Int32(interface.index)
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_IF, request, name: "IP_MULTICAST_IF")
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_TTL, Int32(255), name: "IP_MULTICAST_TTL")
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_LOOP, Int32(loopback ? 1 : 0), name: "IP_MULTICAST_LOOP")
        case .v6:
            try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, Int32(interface.index), name: "IPV6_MULTICAST_IF")
            try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, Int32(255), name: "IPV6_MULTICAST_HOPS")
            try setOption(
                Int32(IPPROTO_IPV6),
                IPV6_MULTICAST_LOOP,
                Int32(loopback ? 1 : 0),
                name: "IPV6_MULTICAST_LOOP"
            )
        }
    }

    /// Sends one datagram.
    package func send(_ bytes: [UInt8], to destination: UDPEndpoint) throws(UDPSocketError) {
        guard !state.withLock({ $0.closed }) else { throw UDPSocketError(.closed, errno: 0) }
        var storage = sockaddr_storage()
        let length: Int
        switch (family, destination.address) {
        case (.v4, .v4(let v4)):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = destination.port.bigEndian
            address.sin_addr = v4.inAddr
            withUnsafeBytes(of: &address) { raw in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) }
            }
            length = MemoryLayout<sockaddr_in>.size
        case (.v6, .v6(let v6)):
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = destination.port.bigEndian
            address.sin6_addr = v6.in6Addr
            address.sin6_scope_id = destination.scopeID
            withUnsafeBytes(of: &address) { raw in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) }
            }
            length = MemoryLayout<sockaddr_in6>.size
        default:
            throw UDPSocketError(.addressFamily, errno: 0, detail: destination.description)
        }
        let sent = bytes.withUnsafeBytes { payload in
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL), $0, socklen_t(length))
                }
            }
        }
        guard sent == bytes.count else { throw UDPSocketError(.send, errno: errno, detail: destination.description) }
    }

    /// Starts delivering received datagrams to `handler` on the socket's loop.
    ///
    /// Datagrams larger than `maximumSize` are cut to it. Delivery stops when the socket is
    /// closed. Only the first call has an effect.
    package func startReceiving(maximumSize: Int = 9000, _ handler: @escaping @Sendable (UDPDatagram) -> Void) {
        let fd = fd
        let start = state.withLock { state -> Bool in
            guard !state.closed, !state.started else { return false }
            state.started = true
            return true
        }
        guard start else { return }
        let loop = loop
        loop.execute {
            // Work handed to the loop runs in order, so a close() after this call finds the
            // descriptor registered, and one before it (closed is checked above) cannot happen.
            let reader = UDPReadHandler(fd: fd, maximumSize: maximumSize, handler: handler)
            do throws(TCPError) {
                try loop.register(fd, interest: .read, handler: reader)
            } catch {
                // Only a closed or invalid descriptor fails to register; nothing is delivered.
            }
        }
    }

    /// Closes the socket; pending reads stop. Calling it again does nothing.
    package func close() {
        let (wasClosed, wasStarted) = state.withLock { state in
            defer { state.closed = true }
            return (state.closed, state.started)
        }
        guard !wasClosed else { return }
        let fd = fd
        guard wasStarted else {
            Glibc.close(fd)
            return
        }
        // On the loop's thread, after the registration: no event can reach a reused descriptor.
        let loop = loop
        loop.execute {
            loop.deregister(fd)
            Glibc.close(fd)
        }
    }

    // MARK: - Private

    fileprivate static func receive(fd: Int32, maximumSize: Int) -> UDPDatagram? {
        var buffer = [UInt8](repeating: 0, count: maximumSize)
        var storage = sockaddr_storage()
        var control = [UInt8](repeating: 0, count: 128)
        let received = buffer.withUnsafeMutableBytes { payload in
            control.withUnsafeMutableBytes { controlBytes in
                withUnsafeMutablePointer(to: &storage) { storagePointer in
                    var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_name = UnsafeMutableRawPointer(storagePointer)
                        header.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = controlBytes.baseAddress
                        header.msg_controllen = controlBytes.count
                        let count = recvmsg(fd, &header, Int32(MSG_DONTWAIT))
                        return (count, header.msg_controllen)
                    }
                }
            }
        }
        guard received.0 >= 0, let source = endpoint(from: storage) else { return nil }
        buffer.removeSubrange(received.0...)
        let index = interfaceIndex(control: control.prefix(received.1))
        return UDPDatagram(bytes: buffer, source: source, interfaceIndex: index)
    }

    /// Reads the arrival interface from an `IP_PKTINFO` or `IPV6_PKTINFO` control message.
    private static func interfaceIndex(control: ArraySlice<UInt8>) -> UInt32 {
        let bytes = Array(control)
        let headerSize = MemoryLayout<cmsghdr>.size
        var offset = 0
        while offset + headerSize <= bytes.count {
            let header = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self) }
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= bytes.count else { break }
            let data = offset + headerSize
            if header.cmsg_level == Int32(IPPROTO_IP), header.cmsg_type == IP_PKTINFO,
                length - headerSize >= MemoryLayout<in_pktinfo>.size
            {
                let info = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: data, as: in_pktinfo.self) }
                return UInt32(info.ipi_ifindex)
            }
            if header.cmsg_level == Int32(IPPROTO_IPV6), header.cmsg_type == IPV6_PKTINFO,
                length - headerSize >= 20
            {
                // struct in6_pktinfo: a 16-byte address, then the interface index.
                return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: data + 16, as: UInt32.self) }
            }
            offset += (length + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
        }
        return 0
    }

    static func endpoint(from storage: sockaddr_storage) -> UDPEndpoint? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in.self) }
            return UDPEndpoint(
                address: .v4(IPv4Address(inAddr: address.sin_addr)),
                port: UInt16(bigEndian: address.sin_port)
            )
        case AF_INET6:
            let address = withUnsafeBytes(of: &storage) { $0.loadUnaligned(as: sockaddr_in6.self) }
            return UDPEndpoint(
                address: .v6(IPv6Address(in6Addr: address.sin6_addr)),
                port: UInt16(bigEndian: address.sin6_port),
                scopeID: address.sin6_scope_id
            )
        default:
            return nil
        }
    }

    private func changeMembership(_ group: IPAddress, on interface: NetworkInterface, join: Bool) throws(UDPSocketError)
    {
        let code: UDPSocketError.Code = join ? .joinGroup : .leaveGroup
        let result: Int32
        switch (family, group) {
        case (.v4, .v4(let v4)):
            var request = ip_mreqn()
            request.imr_multiaddr = v4.inAddr
            request.imr_address = interface.ipv4Addresses.first?.inAddr ?? in_addr(s_addr: INADDR_ANY)
            request.imr_ifindex = Int32(interface.index)
            result = setsockopt(
                fd,
                Int32(IPPROTO_IP),
                join ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP,
                &request,
                socklen_t(MemoryLayout<ip_mreqn>.size)
            )
        case (.v6, .v6(let v6)):
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = v6.in6Addr
            request.ipv6mr_interface = interface.index
            result = setsockopt(
                fd,
                Int32(IPPROTO_IPV6),
                join ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP,
                &request,
                socklen_t(MemoryLayout<ipv6_mreq>.size)
            )
        default:
            throw UDPSocketError(.addressFamily, errno: 0, detail: group.description)
        }
        guard result == 0 else { throw UDPSocketError(code, errno: errno, detail: "\(group) on \(interface.name)") }
    }

    private func setOption<T: BitwiseCopyable>(
        _ level: Int32,
        _ option: Int32,
        _ value: T,
        name: String
    ) throws(UDPSocketError) {
        let result = withUnsafeBytes(of: value) { setsockopt(fd, level, option, $0.baseAddress, socklen_t($0.count)) }
        guard result == 0 else {
            throw UDPSocketError(.option, errno: errno, detail: name)
        }
    }

    private func bind<T>(_ address: inout T, _ length: Int) throws(UDPSocketError) {
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(length)) }
        }
        guard result == 0 else { throw UDPSocketError(.bind, errno: errno, detail: "port") }
    }
}

/// Reads the datagrams of one ``UDPSocket`` when its loop reports it readable.
///
/// Used only on the loop's thread, which registered it.
private final class UDPReadHandler: IOHandler {
    /// The most datagrams read per readiness report, so a flood on one socket cannot hold the
    /// loop's other descriptors and timers; the loop reports the socket again while it has more.
    private static let datagramsPerWakeUp = 64

    private let fd: Int32
    private let maximumSize: Int
    private let handler: @Sendable (UDPDatagram) -> Void

    init(fd: Int32, maximumSize: Int, handler: @escaping @Sendable (UDPDatagram) -> Void) {
        self.fd = fd
        self.maximumSize = maximumSize
        self.handler = handler
    }

    func ioReady(readable: Bool, writable: Bool, hangup: Bool, error: Bool) {
        if error, !readable {
            // A pending ICMP error (port unreachable after a unicast reply): reading it clears it.
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
        }
        guard readable else { return }
        for _ in 0..<Self.datagramsPerWakeUp {
            guard let datagram = UDPSocket.receive(fd: fd, maximumSize: maximumSize) else { return }
            handler(datagram)
        }
    }
}
