/// The resuming side of ``withHandOffContinuation(isolation:function:_:)``: hands one value
/// to the suspended task.
///
/// Call ``resume(returning:)`` exactly once, from any thread.
public struct HandOffContinuation<Value: Sendable>: Sendable {
    private let slot: Locked<Value?>
    private let continuation: CheckedContinuation<Void, Never>

    fileprivate init(slot: Locked<Value?>, continuation: CheckedContinuation<Void, Never>) {
        self.slot = slot
        self.continuation = continuation
    }

    /// Stores `value` for the suspended task and resumes it.
    /// - Parameter value: What `withHandOffContinuation` returns.
    public func resume(returning value: Value) {
        slot.withLock { $0 = value }
        continuation.resume()
    }
}

/// Suspends the current task until `body`'s continuation is resumed with a value, and returns
/// that value: `withCheckedContinuation`, for values built on another thread.
///
/// The value travels through a ``Locked`` slot: the resuming thread stores it under the lock,
/// and the task reads it under the lock once it runs again. The lock orders everything the
/// resuming thread wrote before the hand-over (an object's initialiser, an array's elements)
/// before the task's reads, in a way ThreadSanitizer sees. Resuming a plain continuation
/// orders them as well, but when the resume comes before the task has suspended, the task
/// carries on through an atomic status word in the uninstrumented concurrency runtime, and
/// ThreadSanitizer reports the task's reads as racing with the resuming thread's writes.
///
/// - Parameters:
///   - isolation: The actor the task runs on; the caller's by default.
///   - function: The caller's name, for the checked continuation's misuse messages.
///   - body: Receives the continuation and arranges for it to be resumed exactly once.
/// - Returns: The value passed to ``HandOffContinuation/resume(returning:)``.
public func withHandOffContinuation<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function,
    _ body: (HandOffContinuation<Value>) -> Void
) async -> Value {
    let slot = Locked<Value?>(nil)
    await withCheckedContinuation(isolation: isolation, function: function) {
        (continuation: CheckedContinuation<Void, Never>) in
        body(HandOffContinuation(slot: slot, continuation: continuation))
    }
    guard let value = slot.withLock({ $0.take() }) else {
        preconditionFailure("withHandOffContinuation resumed without a value")
    }
    return value
}
