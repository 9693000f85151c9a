import CastSync
import Foundation
import Observation

/// Hands every later value of a model's state to `AsyncStream` subscribers, in order, and
/// tells Swift's Observation that the state changed, so a view that read the model's state
/// inside `withObservationTracking` (SwiftUI's `body`, or `Observations { model.state }`)
/// hears of it.
///
/// Yielding happens outside the owner's lock: the owner computes the new state under its
/// own lock, then calls ``publish(_:)``.
final class StateBroadcaster<Value: Sendable>: Sendable {
    private let streams = Locked<[UUID: AsyncStream<Value>.Continuation]>([:])
    private let registrar = ObservationRegistrar()
    /// Tells Observation that the bound property changed; set by ``bind(_:_:)``.
    private let announceChange = Locked(Announcement())

    /// The function inside a struct: a function value held directly as `Locked`'s generic
    /// state is re-abstracted each time `withLock` passes it `inout`, which wraps it in two more
    /// thunks on every publish, until the calls are slow and then overflow the stack.
    private struct Announcement {
        var call: (@Sendable () -> Void)?
    }

    init() {}

    /// Makes each ``publish(_:)`` a change of `model`'s `keyPath` for Observation. The model
    /// calls it once, at the end of its initializer, and ``access(_:_:)`` in the property's
    /// getter.
    func bind<Model: Observable & AnyObject & Sendable>(_ model: Model, _ keyPath: any KeyPath<Model, Value> & Sendable)
    {
        let registrar = registrar
        announceChange.withLock {
            $0.call = { [weak model] in
                guard let model else { return }
                registrar.withMutation(of: model, keyPath: keyPath) {}
            }
        }
    }

    /// Records that the caller read `model`'s `keyPath` (Observation's access).
    func access<Model: Observable>(_ model: Model, _ keyPath: KeyPath<Model, Value>) {
        registrar.access(model, keyPath: keyPath)
    }

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

    /// Sends `value` to every subscriber and tells Observation.
    func publish(_ value: Value) {
        announceChange.withLock { $0.call }?()
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
