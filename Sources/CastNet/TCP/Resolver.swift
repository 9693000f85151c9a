import CastSync
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Turns a host name into addresses without blocking an event loop: numeric addresses are
/// parsed directly, names are looked up with `getaddrinfo` on a global queue.
enum Resolver {
    static func resolve(host: String, port: Int) async throws(TCPError) -> [SocketAddress] {
        if let address = try? SocketAddress(ipAddress: host, port: port) { return [address] }
        guard (0...65535).contains(port) else {
            throw TCPError(code: .invalidAddress, operation: "resolve", address: "\(host):\(port)")
        }
        let result = await withHandOffContinuation { (continuation: HandOffContinuation<[SocketAddress]>) in
            DispatchQueue.global().async {
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
