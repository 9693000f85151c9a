import CastNet
import CastSync

/// The listening sockets a fleet's devices share, one per port number, when
/// ``FleetConfiguration/sharesPorts`` is set: each device then serves its address on them
/// instead of binding three sockets of its own.
///
/// 10,000 devices on their own sockets would hold 30,000 descriptors before any sender
/// connects; shared, they hold three. The sockets accept on the loopback interface only
/// (see `LoopbackPortListener` in CastNet), so only loopback addresses can be served this way.
public final class SharedLoopbackPorts: Sendable {
    /// The sockets by requested port; port 0 by role instead (a free port per role).
    private let listeners = Locked<[Key: LoopbackPortListener]>([:])

    private enum Key: Hashable {
        case port(Int)
        case anyPort(role: String)
    }

    /// Creates an empty set; sockets are bound as devices ask for ports.
    public init() {}

    /// The shared socket of `port`, bound on first use. Port 0 binds one free port per
    /// `role` (`"cast"`, `"http"`, `"https"`), which every device asking for port 0 in that
    /// role then shares.
    /// - Throws: ``TCPError`` when the port cannot be bound.
    func listener(port: Int, role: String) throws(TCPError) -> LoopbackPortListener {
        let key = port == 0 ? Key.anyPort(role: role) : Key.port(port)
        // Bound under the lock: devices start in parallel, and a second bind of the same
        // port would fail with "address in use".
        return try listeners.withLock { (listeners) throws(TCPError) -> LoopbackPortListener in
            if let existing = listeners[key] { return existing }
            let made = try LoopbackPortListener(port: port)
            listeners[key] = made
            return made
        }
    }

    /// Closes every socket; returns once their ports can be bound again.
    public func closeAll() async {
        let all = listeners.withLock { listeners in
            defer { listeners = [:] }
            return Array(listeners.values)
        }
        for listener in all { await listener.closeAndWait() }
    }
}
