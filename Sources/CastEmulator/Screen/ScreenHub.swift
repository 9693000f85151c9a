import CastCore
import CastNet
import CastSync

/// The open event streams of one device's screen (`GET /screen/events`), and the last state
/// they were sent.
///
/// Every change of the screen goes to every stream as one server-sent event
/// (`event: state`, `id:` a revision counting up, `data:` the ``ScreenState`` JSON), in the
/// order the device's engine made the changes: the device publishes under its own lock.
/// At most ``limit`` streams are open at once; a new one takes the place of the one furthest
/// behind (else the oldest). Every event is the whole state, so a client that falls behind
/// skips to the newest state (``HTTPResponseStream/writeSnapshot(_:)``) instead of being
/// buffered for; one that stops reading is dropped once its socket queue passes the buffer
/// limit.
final class ScreenHub: Sendable {
    private struct State {
        var clients: [Int: HTTPResponseStream] = [:]
        var nextClient = 1
        var last: ScreenState?
        var revision = 0
    }

    /// The most streams open at once.
    let limit: Int
    /// The most bytes one client may leave unread: past it, states are skipped (and a client
    /// whose socket queue passes it is dropped).
    let bufferLimit: Int
    private let state = Locked(State())

    init(limit: Int, bufferLimit: Int) {
        self.limit = max(1, limit)
        self.bufferLimit = bufferLimit
    }

    /// Whether any stream is open (the device builds states only then).
    var hasClients: Bool { state.withLock { !$0.clients.isEmpty } }

    /// The number of streams open now.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// A new stream that starts with `current`. When ``limit`` streams are open, the one
    /// furthest behind in reading (the most bytes it has not taken), else the oldest, is
    /// closed to make room: a browser that stopped reading never keeps a reading one out,
    /// and a browser dropped this way reconnects on its own (`retry`). Call under the
    /// device's lock, so no change is published between the state taken and the stream
    /// joining.
    func open(current: ScreenState) -> HTTPResponseStream {
        let stream = HTTPResponseStream(bufferLimit: bufferLimit)
        let (id, revision, evicted) = state.withLock { state -> (Int, Int, HTTPResponseStream?) in
            var evicted: HTTPResponseStream?
            if state.clients.count >= limit {
                let backlog = state.clients.mapValues(\.unreadByteCount)
                let victim = state.clients.keys.min { lhs, rhs in
                    let (left, right) = (backlog[lhs] ?? 0, backlog[rhs] ?? 0)
                    return left != right ? left > right : lhs < rhs
                }
                if let victim { evicted = state.clients.removeValue(forKey: victim) }
            }
            let id = state.nextClient
            state.nextClient += 1
            state.clients[id] = stream
            if state.last != current {
                state.last = current
                state.revision += 1
            }
            return (id, state.revision, evicted)
        }
        evicted?.abort()
        stream.onClose { [weak self] in
            self?.state.withLock { _ = $0.clients.removeValue(forKey: id) }
        }
        // Asks EventSource to reconnect after a second when the device goes away.
        stream.write(Array("retry: 1000\n\n".utf8))
        stream.write(Self.event(current, revision: revision))
        return stream
    }

    /// Sends `screen` to every stream when it differs from the last state sent. Call under
    /// the device's lock (the order of changes).
    func publish(_ screen: ScreenState) {
        let (clients, revision) = state.withLock { state -> ([HTTPResponseStream], Int) in
            guard state.last != screen else { return ([], 0) }
            state.last = screen
            state.revision += 1
            return (Array(state.clients.values), state.revision)
        }
        guard !clients.isEmpty else { return }
        let event = Self.event(screen, revision: revision)
        for client in clients { client.writeSnapshot(event) }
    }

    /// Ends every stream (the device stops).
    func closeAll() {
        let clients = state.withLock { state -> [HTTPResponseStream] in
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { client.finish() }
    }

    /// One server-sent event carrying `screen`: the JSON encoder escapes line breaks, so the
    /// data is one line.
    static func event(_ screen: ScreenState, revision: Int) -> [UInt8] {
        var json = screen.json
        if case .object(var members) = json {
            members["revision"] = .integer(revision)
            json = .object(members)
        }
        let data = (try? JSONPayloadEncoder().encodeToBytes(json)) ?? Array("{}".utf8)
        return Array("id: \(revision)\nevent: state\ndata: ".utf8) + data + Array("\n\n".utf8)
    }
}
