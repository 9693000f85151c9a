import CastSync
import CastTime

/// Connections that checked a device, kept a short while for the session that follows.
///
/// A command that names a device by address checks it first (``DiscoveryManager``'s
/// `addDevice`: TLS, CONNECT, RECEIVER_STATUS) and then starts a session on it. Handing the
/// checked connection to the session saves a second TLS handshake and CONNECT. A parked
/// connection has the platform virtual connection open (the session's CONNECT was sent) and
/// has not authenticated: the session that takes it authenticates on it as on a new one.
///
/// Bounded: one connection per address (parking another closes the one before), each closed
/// when nobody takes it within its lifetime.
final class ConnectionHandover: Sendable {
    private struct Parked {
        var connection: DeviceConnection
        var timer: CastTimer?
        var generation: Int
    }

    private struct State {
        var parked: [String: Parked] = [:]
        var generations = 0
    }

    private let state = Locked(State())

    /// Keeps `connection` for a session to `host`:`port` for at most `lifetime` of `clock`.
    func park(_ connection: DeviceConnection, host: String, port: Int, lifetime: Duration, clock: any CastClock) {
        let key = Self.key(host, port)
        let (replaced, generation) = state.withLock { state -> (Parked?, Int) in
            state.generations += 1
            let replaced = state.parked.updateValue(
                Parked(connection: connection, timer: nil, generation: state.generations),
                forKey: key
            )
            return (replaced, state.generations)
        }
        if let replaced { Self.close(replaced) }
        let timer = clock.schedule(after: lifetime) { [weak self] in
            guard let self else { return }
            let expired = state.withLock { state -> Parked? in
                guard state.parked[key]?.generation == generation else { return nil }
                return state.parked.removeValue(forKey: key)
            }
            if let expired { Self.close(expired) }
        }
        let stillParked = state.withLock { state -> Bool in
            guard state.parked[key]?.generation == generation else { return false }
            state.parked[key]?.timer = timer
            return true
        }
        if !stillParked { timer.cancel() }
    }

    /// The connection parked for `host`:`port`, if one is there and still open; it is no
    /// longer parked.
    func take(host: String, port: Int) -> DeviceConnection? {
        let parked = state.withLock { $0.parked.removeValue(forKey: Self.key(host, port)) }
        guard let parked else { return nil }
        parked.timer?.cancel()
        guard !parked.connection.isClosed else { return nil }
        return parked.connection
    }

    /// How many connections are parked (for tests).
    var count: Int { state.withLock { $0.parked.count } }

    private static func key(_ host: String, _ port: Int) -> String { "\(host):\(port)" }

    private static func close(_ parked: Parked) {
        parked.timer?.cancel()
        try? parked.connection.send(
            CloseMessage(),
            namespace: .connection,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        )
        parked.connection.close()
    }
}
