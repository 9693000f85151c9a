import CastSync

/// A response body written while the client reads it, such as a stream of server-sent
/// events (``HTTPResponse/Body/stream(_:)``).
///
/// The body has no `Content-Length`: it ends when ``finish()`` is called or the client goes
/// away, and the connection closes with it. Writing never blocks and never buffers without
/// bound: bytes the client has not taken beyond ``bufferLimit`` (in this stream and in the
/// connection's send queue together) drop the client, which ends the stream.
///
/// A stream of snapshots, where each write supersedes the ones before it (the state of a
/// screen), uses ``writeSnapshot(_:)`` instead: a client that falls behind then skips to
/// the newest snapshot rather than being dropped, and one that stops reading still is once
/// the connection's socket queue passes the limit.
///
/// ```swift
/// let stream = HTTPResponseStream()
/// stream.onClose { print("client gone") }
/// stream.write(Array("data: hello\n\n".utf8))
/// return HTTPResponse(headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
/// ```
public final class HTTPResponseStream: Sendable {
    /// What a stream hands its connection, in order, on the connection's loop.
    enum Event: Sendable {
        case bytes([UInt8])
        case finish
        case abort
    }

    private struct State {
        var sink: (@Sendable (Event) -> Void)?
        /// Bytes written before a connection took the stream.
        var early: [[UInt8]] = []
        /// Bytes handed to the connection's loop and not yet written to its socket queue.
        var inFlight = 0
        /// The newest snapshot, held while the client is too far behind to take it.
        var heldSnapshot: [UInt8]?
        /// Bytes in the connection's socket queue, not yet taken by the kernel.
        var socketQueue = 0
        var isClosed = false
        var finishRequested = false
        var closeHandlers: [@Sendable () -> Void] = []
    }

    /// The most bytes the client may leave unread before it is dropped.
    public let bufferLimit: Int
    private let state = Locked(State())

    /// Creates an open stream.
    /// - Parameter bufferLimit: the most bytes not yet taken by the client (at least 1 KiB).
    public init(bufferLimit: Int = 256 * 1024) {
        self.bufferLimit = max(1024, bufferLimit)
    }

    /// `true` once the stream ended: finished, the client gone or dropped.
    public var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Queues `bytes` for the client.
    /// - Returns: `false` when the stream has ended (the bytes are dropped), or when these
    ///   bytes took the unread total over ``bufferLimit`` and the client was dropped.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        var handlers: [@Sendable () -> Void] = []
        let accepted = state.withLock { state -> Bool in
            guard !state.isClosed, !state.finishRequested else { return false }
            // A held snapshot was written first: it goes out first.
            let bytes = (state.heldSnapshot.take() ?? []) + bytes
            state.inFlight += bytes.count
            if state.inFlight > bufferLimit {
                handlers = Self.close(&state)
                state.sink?(.abort)
                return false
            }
            Self.hand(bytes, in: &state)
            return true
        }
        for handler in handlers { handler() }
        return accepted
    }

    /// Queues `bytes`, a snapshot that supersedes every snapshot written before it. When
    /// taking it would leave more than ``bufferLimit`` bytes unread, it is held instead
    /// (replacing a snapshot held before) and sent once the connection has taken enough;
    /// the client is not dropped for it.
    /// - Returns: `false` when the stream has ended (the bytes are dropped).
    @discardableResult
    public func writeSnapshot(_ bytes: [UInt8]) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isClosed, !state.finishRequested else { return false }
            if state.heldSnapshot != nil || !Self.hasRoom(for: bytes.count, in: state, limit: bufferLimit) {
                state.heldSnapshot = bytes
            } else {
                state.inFlight += bytes.count
                Self.hand(bytes, in: &state)
            }
            return true
        }
    }

    /// How many bytes written to the stream the client has not taken yet (in the stream,
    /// on their way to the connection, and in its socket queue): 0 for a client that keeps
    /// up. A server with a limited number of streams can tell from it which client to drop.
    public var unreadByteCount: Int {
        state.withLock { $0.inFlight + ($0.heldSnapshot?.count ?? 0) + $0.socketQueue }
    }

    /// Ends the stream now, dropping what the client has not taken: the connection closes
    /// at once (a client that stopped reading gives its place up).
    public func abort() {
        var handlers: [@Sendable () -> Void] = []
        state.withLock { state in
            guard !state.isClosed else { return }
            handlers = Self.close(&state)
            state.sink?(.abort)
        }
        for handler in handlers { handler() }
    }

    /// Ends the body once the queued bytes are out; the connection then closes.
    public func finish() {
        state.withLock { state in
            guard !state.isClosed, !state.finishRequested else { return }
            if let held = state.heldSnapshot.take() {
                state.inFlight += held.count
                Self.hand(held, in: &state)
            }
            state.finishRequested = true
            state.sink?(.finish)
        }
    }

    /// Calls `handler` once when the stream ends (at once when it already has). The client
    /// going away is seen when the connection closes.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let run = state.withLock { state -> Bool in
            if state.isClosed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if run { handler() }
    }

    // MARK: The connection's side

    /// A connection takes the stream: what was written so far, then every later write,
    /// goes to `sink` (which must only enqueue work on the connection's loop).
    func attach(_ sink: @escaping @Sendable (Event) -> Void) {
        state.withLock { state in
            guard !state.isClosed else {
                sink(.abort)
                return
            }
            state.sink = sink
            for bytes in state.early { sink(.bytes(bytes)) }
            state.early = []
            if state.finishRequested { sink(.finish) }
        }
    }

    /// The connection moved `count` bytes to its socket queue.
    func delivered(_ count: Int) {
        state.withLock { state in
            state.inFlight = max(0, state.inFlight - count)
            guard let held = state.heldSnapshot, state.sink != nil,
                Self.hasRoom(for: held.count, in: state, limit: bufferLimit)
            else { return }
            state.heldSnapshot = nil
            state.inFlight += held.count
            Self.hand(held, in: &state)
        }
    }

    /// Whether `count` more bytes stay within `limit`; a snapshot larger than the limit
    /// goes out alone, once nothing else is unread.
    private static func hasRoom(for count: Int, in state: State, limit: Int) -> Bool {
        state.inFlight == 0 || state.inFlight + count <= limit
    }

    /// Hands `bytes` to the connection, or keeps them until one takes the stream. Under the
    /// lock, so writes keep their order.
    private static func hand(_ bytes: [UInt8], in state: inout State) {
        if let sink = state.sink {
            sink(.bytes(bytes))
        } else {
            state.early.append(bytes)
        }
    }

    /// The connection's socket queue now holds `count` bytes.
    func socketQueueChanged(_ count: Int) {
        state.withLock { $0.socketQueue = count }
    }

    /// The connection closed (the client went away, was dropped, or the body finished).
    func connectionClosed() {
        let handlers = state.withLock { Self.close(&$0) }
        for handler in handlers { handler() }
    }

    private static func close(_ state: inout State) -> [@Sendable () -> Void] {
        guard !state.isClosed else { return [] }
        state.isClosed = true
        state.early = []
        state.heldSnapshot = nil
        let handlers = state.closeHandlers
        state.closeHandlers = []
        return handlers
    }
}
