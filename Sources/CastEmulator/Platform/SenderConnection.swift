import CastCore
import CastTime

/// What the device knows about one sender's TLS connection: its virtual connections and
/// heartbeat timing.
struct SenderConnection: Sendable {
    /// One virtual connection: a sender endpoint talking to a device endpoint.
    struct VirtualConnection: Hashable, Sendable {
        /// The sender's source id.
        var senderID: String
        /// The device endpoint: `receiver-0` or an app's transport id.
        var endpointID: String
        /// The connection type from `CONNECT` (strong, weak, invisible).
        var type: VirtualConnectionType
    }

    /// When the connection opened.
    var openedAt: DeviceInstant
    /// When the last message of any kind arrived.
    var lastReceived: DeviceInstant
    /// When the device last sent a `PING` that has not been followed by a message.
    var lastPingSent: DeviceInstant?
    /// The virtual connections, in the order they were opened.
    var virtualConnections: [VirtualConnection] = []

    init(openedAt: DeviceInstant) {
        self.openedAt = openedAt
        self.lastReceived = openedAt
    }

    func isConnected(_ senderID: String, to endpointID: String) -> Bool {
        virtualConnections.contains { $0.senderID == senderID && $0.endpointID == endpointID }
    }

    /// The senders connected to `endpointId`, in connection order, without repeats.
    func senders(connectedTo endpointID: String) -> [String] {
        var seen = Set<String>()
        return virtualConnections.compactMap { connection in
            guard connection.endpointID == endpointID, seen.insert(connection.senderID).inserted else { return nil }
            return connection.senderID
        }
    }

    mutating func removeVirtualConnections(to endpointID: String) {
        virtualConnections.removeAll { $0.endpointID == endpointID }
    }

    /// When the device should next `PING` this connection.
    func nextPing(interval: Duration) -> DeviceInstant {
        max(lastReceived, lastPingSent ?? lastReceived) + interval
    }
}
