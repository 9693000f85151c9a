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

    /// The most look-ups waiting for the thread; a further one fails at once rather than
    /// queue without bound behind a resolver that answers slowly.
    static let maximumWaiting = 64

    /// How many look-ups are queued or running.
    private static let waiting = Locked(0)

    /// The addresses of `host`. Cancelling the calling task returns at once (a look-up not
    /// yet started never runs; one under way finishes on its thread and is dropped).
    /// - Throws: ``TCPError/Code/nameResolutionFailed`` when the name has no address or
    ///   ``maximumWaiting`` look-ups wait already; ``TCPError/Code/closed`` when cancelled.
    static func resolve(host: String, port: Int) async throws(TCPError) -> [SocketAddress] {
        if let address = try? SocketAddress(ipAddress: host, port: port) { return [address] }
        guard (0...65535).contains(port) else {
            throw TCPError(code: .invalidAddress, operation: "resolve", address: "\(host):\(port)")
        }
        let admitted = waiting.withLock { count -> Bool in
            guard count < maximumWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else {
            throw TCPError(code: .nameResolutionFailed, operation: "resolve (too many look-ups waiting)", address: host)
        }
        // Whichever comes first, the answer or the cancellation, takes the continuation.
        let pending = Locked<HandOffContinuation<[SocketAddress]?>?>(nil)
        let result = await withTaskCancellationHandler {
            await withHandOffContinuation { (continuation: HandOffContinuation<[SocketAddress]?>) in
                pending.withLock { $0 = continuation }
                // Cancelled before the handler could see the continuation.
                if Task.isCancelled { pending.withLock { $0.take() }?.resume(returning: nil) }
                lookUpThread.enqueue {
                    defer { waiting.withLock { $0 -= 1 } }
                    guard pending.withLock({ $0 != nil }) else { return }
                    let addresses = lookUp(host: host, port: port)
                    pending.withLock { $0.take() }?.resume(returning: addresses)
                }
            }
        } onCancel: {
            pending.withLock { $0.take() }?.resume(returning: nil)
        }
        guard let result else { throw TCPError(code: .closed, operation: "resolve (cancelled)", address: host) }
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
