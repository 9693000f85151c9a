public import CastCore
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A network interface of this machine and its addresses.
public struct NetworkInterface: Hashable, Sendable, CustomStringConvertible {
    /// The interface name, such as `eth0` or `lo`.
    public var name: String
    /// The interface index used by the socket API.
    public var index: UInt32
    /// Whether the interface is administratively up.
    public var isUp: Bool
    /// Whether the interface is a loopback interface.
    public var isLoopback: Bool
    /// Whether the interface announces multicast support.
    public var supportsMulticast: Bool
    /// The IPv4 addresses of the interface.
    public var ipv4Addresses: [IPv4Address]
    /// The IPv6 addresses of the interface.
    public var ipv6Addresses: [IPv6Address]

    /// Creates an interface description.
    public init(
        name: String,
        index: UInt32,
        isUp: Bool = true,
        isLoopback: Bool = false,
        supportsMulticast: Bool = true,
        ipv4Addresses: [IPv4Address] = [],
        ipv6Addresses: [IPv6Address] = []
    ) {
        self.name = name
        self.index = index
        self.isUp = isUp
        self.isLoopback = isLoopback
        self.supportsMulticast = supportsMulticast
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
    }

    /// Every address, IPv4 first.
    public var addresses: [IPAddress] { ipv4Addresses.map(IPAddress.v4) + ipv6Addresses.map(IPAddress.v6) }

    /// Whether mDNS runs on the interface by default: up, multicast-capable, not loopback,
    /// with at least one address.
    public var isDefaultForDiscovery: Bool { discoveryExclusionReason == nil }

    /// Why discovery leaves the interface out by default (`"down"`, `"loopback"`,
    /// `"no multicast"`, `"no address"`), or `nil` when it is used. Naming the interface
    /// uses it anyway.
    public var discoveryExclusionReason: String? {
        if !isUp { return "down" }
        if isLoopback { return "loopback" }
        if !supportsMulticast { return "no multicast" }
        if ipv4Addresses.isEmpty && ipv6Addresses.isEmpty { return "no address" }
        return nil
    }

    public var description: String {
        var flags: [String] = []
        if isUp { flags.append("up") }
        if isLoopback { flags.append("loopback") }
        if supportsMulticast { flags.append("multicast") }
        return
            "\(name)#\(index) [\(flags.joined(separator: ","))] \(addresses.map(\.description).joined(separator: " "))"
    }

    /// Lists the interfaces of this machine (`getifaddrs`), in index order.
    /// - Throws: ``UDPSocketError`` when the list cannot be read.
    public static func all() throws(UDPSocketError) -> [NetworkInterface] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { throw UDPSocketError(.interfaces, errno: errno) }
        defer { freeifaddrs(head) }
        var byName: [String: NetworkInterface] = [:]
        var cursor = head
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let name = String(cString: entry.pointee.ifa_name)
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            var interface =
                byName[name]
                ?? NetworkInterface(
                    name: name,
                    index: if_nametoindex(entry.pointee.ifa_name),
                    isUp: flags & Int32(IFF_UP) != 0,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0,
                    supportsMulticast: flags & Int32(IFF_MULTICAST) != 0
                )
            if let address = entry.pointee.ifa_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    let v4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
                    interface.ipv4Addresses.append(IPv4Address(inAddr: v4.sin_addr))
                case AF_INET6:
                    let v6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
                    interface.ipv6Addresses.append(IPv6Address(in6Addr: v6.sin6_addr))
                default:
                    break
                }
            }
            byName[name] = interface
        }
        return byName.values.sorted { $0.index < $1.index }
    }

    /// Chooses the interfaces for discovery.
    ///
    /// - Parameters:
    ///   - names: the interface names to use; `nil` or empty means every interface for
    ///     which ``isDefaultForDiscovery`` holds.
    ///   - available: the interfaces to choose from.
    /// - Throws: ``UDPSocketError`` `unknownInterface` when a named interface does not exist;
    ///   `noUsableInterface`, naming every interface seen and why it was left out, when no
    ///   names are given and no interface qualifies.
    public static func select(
        names: [String]?,
        from available: [NetworkInterface]
    ) throws(UDPSocketError) -> [NetworkInterface] {
        guard let names, !names.isEmpty else {
            let chosen = available.filter(\.isDefaultForDiscovery)
            guard !chosen.isEmpty else {
                throw .noUsableInterface(
                    available.map { ($0.name, $0.discoveryExclusionReason.map { "\($0), left out by default" } ?? "") }
                )
            }
            return chosen
        }
        return try names.map { (name) throws(UDPSocketError) -> NetworkInterface in
            guard let interface = available.first(where: { $0.name == name }) else {
                throw UDPSocketError(.unknownInterface, errno: 0, detail: name)
            }
            return interface
        }
    }

    /// Splits a comma-separated interface list, such as the value of a command line's
    /// `--interface` option or an environment variable, into names; blanks are dropped.
    public static func names(fromList list: String) -> [String] {
        list.split(separator: ",").map {
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        .filter { !$0.isEmpty }
    }
}

extension IPv4Address {
    init(inAddr: in_addr) {
        let value = UInt32(bigEndian: inAddr.s_addr)
        self.init(UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    var inAddr: in_addr { in_addr(s_addr: integerValue.bigEndian) }
}

extension IPv6Address {
    init(in6Addr: in6_addr) {
        var copy = in6Addr
        let bytes = withUnsafeBytes(of: &copy) { Array($0) }
        self.init(bytes: bytes)!
    }

    var in6Addr: in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        return address
    }
}
