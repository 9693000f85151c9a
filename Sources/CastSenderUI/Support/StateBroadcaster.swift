import CastSync
import Foundation

/// Hands every later value of a model's state to `AsyncStream` subscribers, in order.
///
/// Yielding happens outside the owner's lock: the owner computes the new state under its
/// own lock, then calls ``publish(_:)``.
final class StateBroadcaster<Value: Sendable>: Sendable {
    private let streams = Locked<[UUID: AsyncStream<Value>.Continuation]>([:])

    init() {}

    /// A new stream of every later value; it keeps only the newest value when its reader is slow.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        streams.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.streams.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `value` to every subscriber.
    func publish(_ value: Value) {
        for continuation in streams.withLock({ Array($0.values) }) { continuation.yield(value) }
    }

    /// Ends every stream.
    func finish() {
        let continuations = streams.withLock { streams in
            defer { streams.removeAll() }
            return Array(streams.values)
        }
        for continuation in continuations { continuation.finish() }
    }

    deinit {
        for continuation in streams.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
