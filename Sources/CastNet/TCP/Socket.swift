internal import CCastSystem

#if canImport(Glibc)
import Glibc
#endif

/// Thin non-blocking wrappers over the BSD socket calls, returning typed errors.
///
/// A `Socket` does not own its descriptor's lifetime; the channel that holds it closes it.
enum Socket {
    /// The outcome of a non-blocking read or write.
    enum IOResult: Equatable {
        /// This many bytes were transferred.
        case transferred(Int)
        /// The call would block; wait for the socket to become ready.
        case wouldBlock
        /// The peer closed its sending side (reads only).
        case endOfFile
    }

    /// Creates a non-blocking, close-on-exec stream socket.
    static func makeStream(family: Int32) throws(TCPError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = Glibc.socket(family, type, 0)
        guard fd >= 0 else { throw TCPError(errno: errno, operation: "socket") }
        return fd
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Disables Nagle's algorithm: Cast frames are small and latency-sensitive.
    static func setNoDelay(_ fd: Int32) {
        setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    static func bind(_ fd: Int32, to address: SocketAddress) throws(TCPError) {
        let result = address.withSockAddr { Glibc.bind(fd, $0, $1) }
        guard result == 0 else { throw TCPError(errno: errno, operation: "bind", address: address.description) }
    }

    /// Restricts `fd` to packets of the interface named `name` (`SO_BINDTODEVICE`).
    static func bind(_ fd: Int32, toInterface name: String) throws(TCPError) {
        let result = name.withCString { text in
            setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, text, socklen_t(strlen(text) + 1))
        }
        guard result == 0 else {
            throw TCPError(errno: errno, operation: "bind to interface", address: name)
        }
    }

    static func listen(_ fd: Int32, backlog: Int32) throws(TCPError) {
        guard Glibc.listen(fd, backlog) == 0 else { throw TCPError(errno: errno, operation: "listen") }
    }

    /// Starts a connection; returns `true` when it completed at once, `false` when in progress.
    static func connect(_ fd: Int32, to address: SocketAddress) throws(TCPError) -> Bool {
        let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
        if result == 0 { return true }
        let error = errno
        if error == EINPROGRESS || error == EINTR { return false }
        throw TCPError(errno: error, operation: "connect", address: address.description)
    }

    /// The pending error of a socket (after a non-blocking connect), or 0.
    static func pendingError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else { return errno }
        return value
    }

    /// The number of received bytes waiting to be read (0 when it cannot be told).
    static func queuedInputBytes(_ fd: Int32) -> Int {
        var count: Int32 = 0
        guard ioctl(fd, UInt(FIONREAD), &count) == 0 else { return 0 }
        return Int(count)
    }

    /// Accepts one connection; `nil` when none is waiting.
    static func accept(_ fd: Int32) throws(TCPError) -> Int32? {
        while true {
            // Non-blocking and close-on-exec from the start: a child spawned by another
            // thread at this moment must not inherit the connection (it would keep the
            // connection open after we close it).
            let client = accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            if client >= 0 { return client }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case let error: throw TCPError(errno: error, operation: "accept")
            }
        }
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(TCPError) -> IOResult {
        while true {
            let count = Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let error: throw TCPError(errno: error, operation: "recv")
            }
        }
    }

    static func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) throws(TCPError) -> IOResult {
        while true {
            let count = Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .transferred(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let error: throw TCPError(errno: error, operation: "send")
            }
        }
    }

    static func localAddress(_ fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    static func remoteAddress(_ fd: Int32) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    static func shutdownOutput(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Makes the next `close` send a reset instead of an orderly FIN.
    static func setAbortiveClose(_ fd: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }
}
