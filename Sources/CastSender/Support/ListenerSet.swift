import CastSync
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Weakly held listeners plus `AsyncStream` subscribers of one event type, notified in
/// order on one serial queue.
final class ListenerSet<Listener, Event: Sendable>: Sendable {
    private struct Weak: @unchecked Sendable {
        // Listeners are Sendable class instances; the box only holds them weakly.
        weak var object: AnyObject?
    }

    private struct State {
        var listeners: [Weak] = []
        var streams: [UUID: AsyncStream<Event>.Continuation] = [:]
    }

    private let state = Locked(State())
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func add(_ listener: AnyObject) {
        state.withLock { state in
            state.listeners.removeAll { $0.object == nil || $0.object === listener }
            state.listeners.append(Weak(object: listener))
        }
    }

    func remove(_ listener: AnyObject) {
        state.withLock { state in state.listeners.removeAll { $0.object == nil || $0.object === listener } }
    }

    /// A new stream of every later event.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.streams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Queues `event` for every listener (through `call`) and stream, in order. `after`
    /// runs on the queue once all have been called.
    ///
    /// With no listener, no stream and no `after`, nothing is queued: an event nobody hears
    /// costs no hop to the queue (a status arriving every second on a thousand sessions).
    func emit(
        _ event: Event,
        _ call: @escaping @Sendable (Listener, Event) -> Void,
        after: (@Sendable () -> Void)? = nil
    ) {
        if after == nil, !hasSubscribers { return }
        queue.async { [self] in
            let (listeners, streams) = state.withLock { state in
                (state.listeners.compactMap { $0.object as? Listener }, Array(state.streams.values))
            }
            for listener in listeners { call(listener, event) }
            for stream in streams { stream.yield(event) }
            after?()
        }
    }

    private var hasSubscribers: Bool {
        state.withLock { state in
            !state.streams.isEmpty || state.listeners.contains { $0.object != nil }
        }
    }

    /// Ends every stream.
    func finish() {
        let streams = state.withLock { state -> [AsyncStream<Event>.Continuation] in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}
