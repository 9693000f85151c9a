import CastSync

/// A value that changes over time, and the streams that follow it.
///
/// Each stream starts with the value as it is when the stream is made, then yields every later
/// change, in order; a value the same as the one before (by `isSame`) is not yielded again. So
/// a caller that subscribes after something happened still sees where things stand, and one
/// that subscribes before sees each step.
///
/// The value and the subscribers share one lock, so a stream made while the value changes
/// starts either with the old value and then gets the new one, or starts with the new one:
/// never neither, never the new one twice. A reader more than ``bufferLimit`` changes behind
/// skips to the newer ones (it always ends with the latest value).
package final class ObservedValue<Value: Sendable>: Sendable {
    /// The changes a slow reader's stream holds before it drops the oldest.
    package static var bufferLimit: Int { 64 }

    private struct State {
        var value: Value
        var streams: [UInt64: AsyncStream<Value>.Continuation] = [:]
        var nextStream: UInt64 = 0
        var isFinished = false
    }

    private let state: Locked<State>
    private let isSame: @Sendable (Value, Value) -> Bool

    /// Starts with `value`; `isSame` says when a new value is no change.
    package init(_ value: Value, isSame: @escaping @Sendable (Value, Value) -> Bool) {
        state = Locked(State(value: value))
        self.isSame = isSame
    }

    /// The value now.
    package var value: Value { state.withLock { $0.value } }

    /// Whether any stream follows the value: an owner whose value is costly to compute
    /// updates it only then, and once more before it makes a stream.
    package var isObserved: Bool { state.withLock { !$0.streams.isEmpty } }

    /// Sets the value; returns whether it changed (and was yielded to every stream).
    @discardableResult
    package func update(_ value: Value) -> Bool {
        state.withLock { state in
            guard !isSame(state.value, value) else { return false }
            state.value = value
            // Yielded under the lock, so every stream sees the changes in the order they were
            // made; yielding only queues the value (no reader code runs here).
            for continuation in state.streams.values { continuation.yield(value) }
            return true
        }
    }

    /// Sets the value as ``update(_:)`` does, for an owner that needs no answer: while no
    /// stream follows the value, it is kept without comparing it with the one before (two
    /// media statuses cost more to compare than to track, and one arrives every second on
    /// every session).
    package func store(_ value: Value) {
        state.withLock { state in
            guard !state.streams.isEmpty else {
                state.value = value
                return
            }
            guard !isSame(state.value, value) else { return }
            state.value = value
            for continuation in state.streams.values { continuation.yield(value) }
        }
    }

    /// A stream of the value now, then every change, until ``finish()`` or the reader stops.
    package func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = state.withLock { state in
            defer { state.nextStream += 1 }
            return state.nextStream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
        }
        let ended = state.withLock { state -> Bool in
            // The current value and the registration in one step: no change falls between.
            // A reader that already stopped is not registered.
            if case .terminated = continuation.yield(state.value) { return false }
            guard !state.isFinished else { return true }
            state.streams[id] = continuation
            return false
        }
        if ended { continuation.finish() }
        return stream
    }

    /// Ends every stream; later streams yield the last value and end.
    package func finish() {
        let continuations = state.withLock { state -> [AsyncStream<Value>.Continuation] in
            state.isFinished = true
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        // Outside the lock: finishing runs each stream's termination handler, which takes it.
        for continuation in continuations { continuation.finish() }
    }

    deinit {
        for continuation in state.withLock({ Array($0.streams.values) }) { continuation.finish() }
    }
}

extension ObservedValue where Value: Equatable {
    /// Starts with `value`; an equal value is no change.
    package convenience init(_ value: Value) {
        self.init(value, isSame: ==)
    }
}
