#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a port.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family of a ``SocketAddress``.
    public struct Family: Hashable, Sendable, CustomStringConvertible {
        fileprivate let value: Int32

        /// IPv4.
        public static let ipv4 = Family(value: AF_INET)
        /// IPv6.
        public static let ipv6 = Family(value: AF_INET6)

        public var description: String { self == .ipv4 ? "IPv4" : "IPv6" }
    }

    /// IPv4 or IPv6.
    public let family: Family
    /// The port, 0 to 65535.
    public let port: Int
    /// 4 bytes for IPv4, 16 for IPv6, in network order.
    private let addressBytes: [UInt8]
    /// The IPv6 scope (interface index); zero for IPv4.
    private let scopeID: UInt32

    /// Creates an address from a numeric IP address (`"127.0.0.5"`, `"::1"`) and a port.
    /// - Throws: ``TCPError/invalidAddress`` when `ipAddress` is not a numeric address or
    ///   the port is out of range.
    public init(ipAddress: String, port: Int) throws(TCPError) {
        guard (0...65535).contains(port) else {
            throw TCPError(code: .invalidAddress, operation: "address", address: "\(ipAddress):\(port)")
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, ipAddress, &v4) == 1 {
            self.family = .ipv4
            self.addressBytes = withUnsafeBytes(of: &v4) { Array($0) }
            self.scopeID = 0
            self.port = port
            return
        }
        var v6 = in6_addr()
        var text = ipAddress
        var scope: UInt32 = 0
        if let percent = ipAddress.firstIndex(of: "%") {
            text = String(ipAddress[..<percent])
            let name = String(ipAddress[ipAddress.index(after: percent)...])
            scope = UInt32(name) ?? if_nametoindex(name)
        }
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.family = .ipv6
            self.addressBytes = withUnsafeBytes(of: &v6) { Array($0) }
            self.scopeID = scope
            self.port = port
            return
        }
        throw TCPError(code: .invalidAddress, operation: "address", address: "\(ipAddress):\(port)")
    }

    /// The IPv4 loopback address `127.0.0.1` with `port`.
    public static func loopbackIPv4(port: Int = 0) -> SocketAddress {
        try! SocketAddress(ipAddress: "127.0.0.1", port: port)
    }

    /// The IPv6 loopback address `::1` with `port`.
    public static func loopbackIPv6(port: Int = 0) -> SocketAddress {
        try! SocketAddress(ipAddress: "::1", port: port)
    }

    /// The numeric IP address, without the port.
    public var ipAddress: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        addressBytes.withUnsafeBytes { raw in
            _ = inet_ntop(family.value, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `1.2.3.4:80` or `[::1]:80`.
    public var description: String {
        family == .ipv4 ? "\(ipAddress):\(port)" : "[\(ipAddress)]:\(port)"
    }

    /// The same address with another port.
    public func withPort(_ port: Int) -> SocketAddress {
        SocketAddress(family: family, port: port, addressBytes: addressBytes, scopeID: scopeID)
    }

    private init(family: Family, port: Int, addressBytes: [UInt8], scopeID: UInt32) {
        self.family = family
        self.port = port
        self.addressBytes = addressBytes
        self.scopeID = scopeID
    }

    /// Calls `body` with this address as a `sockaddr`.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        if family == .ipv4 {
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: addressBytes) }
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var storage = sockaddr_in6()
        storage.sin6_family = sa_family_t(AF_INET6)
        storage.sin6_port = in_port_t(UInt16(port).bigEndian)
        storage.sin6_scope_id = scopeID
        withUnsafeMutableBytes(of: &storage.sin6_addr) { $0.copyBytes(from: addressBytes) }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }

    /// Reads an address filled in by the kernel; `nil` for families other than IP.
    init?(storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            var address = value.sin_addr
            self.init(
                family: .ipv4,
                port: Int(UInt16(bigEndian: value.sin_port)),
                addressBytes: withUnsafeBytes(of: &address) { Array($0) },
                scopeID: 0
            )
        case AF_INET6:
            let value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var address = value.sin6_addr
            self.init(
                family: .ipv6,
                port: Int(UInt16(bigEndian: value.sin6_port)),
                addressBytes: withUnsafeBytes(of: &address) { Array($0) },
                scopeID: value.sin6_scope_id
            )
        default:
            return nil
        }
    }

    var familyValue: Int32 { family.value }
}
