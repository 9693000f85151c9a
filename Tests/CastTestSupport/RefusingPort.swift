#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port that refuses every connection for as long as this value lives.
///
/// The socket is bound but never listens, and it is bound without `SO_REUSEADDR`, so no other
/// socket of any test can take the port meanwhile and the kernel answers each `SYN` with a
/// reset. (Closing a listener and reusing its port is a race: a parallel test's ephemeral
/// listener may be handed the same port.)
package final class RefusingPort: @unchecked Sendable {
    // @unchecked: `descriptor` and `port` are set once in `init` and only read afterwards.
    private let descriptor: Int32
    /// The port number on 127.0.0.1.
    package let port: Int

    /// Binds a socket to an ephemeral port on 127.0.0.1.
    package init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RefusingPortError(errno: errno) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw RefusingPortError(errno: code)
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: local.sin_port))
    }

    deinit { close(descriptor) }
}

/// A socket for ``RefusingPort`` could not be made or bound.
package struct RefusingPortError: Error, CustomStringConvertible {
    package let errno: Int32
    package var description: String { "cannot bind a socket to 127.0.0.1: errno \(errno)" }
}
