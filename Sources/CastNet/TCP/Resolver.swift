import CastSync

#if canImport(Glibc)
import Glibc
#endif

/// Turns a host name into addresses without blocking an event loop or a shared thread:
/// numeric addresses are parsed directly, names are looked up with `getaddrinfo` on a thread
/// kept for that alone.
enum Resolver {
    /// The thread the lookups run on, one at a time: a loop thread that never watches a
    /// descriptor, so a lookup that blocks for the resolver's whole timeout delays only the
    /// lookups queued behind it, never a connection's I/O or a task of the cooperative pool.
    private static let lookUpThread: LoopCore = {
        let core = LoopCore(label: "cast.resolver", permanent: false)
        core.start()
        return core
    }()

    static func resolve(host: String, port: Int) async throws(TCPError) -> [SocketAddress] {
        if let address = try? SocketAddress(ipAddress: host, port: port) { return [address] }
        guard (0...65535).contains(port) else {
            throw TCPError(code: .invalidAddress, operation: "resolve", address: "\(host):\(port)")
        }
        let result = await withHandOffContinuation { (continuation: HandOffContinuation<[SocketAddress]>) in
            lookUpThread.enqueue {
                continuation.resume(returning: lookUp(host: host, port: port))
            }
        }
        guard !result.isEmpty else {
            throw TCPError(code: .nameResolutionFailed, operation: "resolve", address: host)
        }
        return result
    }

    private static func lookUp(host: String, port: Int) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor?.pointee {
            if let raw = entry.ai_addr {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: Int(entry.ai_addrlen)))
                }
                if let address = SocketAddress(storage: storage)?.withPort(port), !addresses.contains(address) {
                    addresses.append(address)
                }
            }
            cursor = entry.ai_next
        }
        return addresses
    }
}
