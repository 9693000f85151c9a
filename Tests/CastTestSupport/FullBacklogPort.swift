#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP port whose connections never complete, for as long as this value lives: a
/// listener with a backlog of 0 that never accepts, its queue filled by two connections of its
/// own. The kernel then drops every further `SYN`, so a client's `connect` stays in `SYN_SENT`
/// until its own timeout, as with a server whose accept queue is full.
package final class FullBacklogPort: @unchecked Sendable {
    // @unchecked: the descriptors and `port` are set once in `init` and only read afterwards.
    private let listener: Int32
    private let fillers: [Int32]
    /// The port number on 127.0.0.1.
    package let port: Int

    /// Listens on an ephemeral port of 127.0.0.1 and fills its accept queue.
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
        guard bound, listen(fd, 0) == 0 else {
            let code = errno
            close(fd)
            throw RefusingPortError(errno: code)
        }
        listener = fd
        port = Int(UInt16(bigEndian: local.sin_port))
        // A backlog of 0 holds one completed connection, which fills it (a second one would
        // itself stay connecting). The connect completes at once on loopback.
        var fillers: [Int32] = []
        for _ in 0..<1 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard client >= 0 else { continue }
            var target = local
            _ = withUnsafePointer(to: &target) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    connect(client, address, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(client)
        }
        self.fillers = fillers
    }

    deinit {
        for fd in fillers { close(fd) }
        close(listener)
    }

    /// How many sockets of this network namespace are connecting to the port (`SYN_SENT` in
    /// `/proc/net/tcp`): the connection attempts clients hold open. Compare with the count
    /// before the client started.
    package var connectingSockets: Int { KernelSockets.count(state: .synSent, remotePort: port) }
}

/// Reads the kernel's table of TCP sockets of this network namespace (`/proc/net/tcp`).
package enum KernelSockets {
    /// A TCP state as `/proc/net/tcp` writes it.
    package enum State: String {
        case established = "01"
        case synSent = "02"
        case listen = "0A"
    }

    /// How many IPv4 sockets are in `state` with `localPort` as their own port.
    package static func count(state: State, localPort: Int) -> Int {
        count(state: state, port: localPort, field: 1)
    }

    /// How many IPv4 sockets are in `state` with `remotePort` as their peer's port.
    package static func count(state: State, remotePort: Int) -> Int {
        count(state: state, port: remotePort, field: 2)
    }

    /// Counts the rows in `state` whose address `field` (1: local, 2: remote) has `port`.
    private static func count(state: State, port: Int, field: Int) -> Int {
        guard let file = fopen("/proc/net/tcp", "r") else { return 0 }
        defer { fclose(file) }
        let wanted = String(port, radix: 16, uppercase: true)
        let paddedPort = String(repeating: "0", count: max(0, 4 - wanted.count)) + wanted
        var count = 0
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0 {
            guard let line else { break }
            let fields = String(cString: line).split(separator: " ")
            // sl local_address rem_address st ...
            guard fields.count > 3 else { continue }
            if fields[field].hasSuffix(":" + paddedPort), fields[3] == state.rawValue { count += 1 }
        }
        return count
    }
}
