#if canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#elseif canImport(Darwin)
public import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, read and changed only inside ``withLock(_:)``.
///
/// `Locked` takes the place of `Synchronization.Mutex` throughout swift-cast, with the same
/// `withLock` shape. It exists for ThreadSanitizer: the sanitizer intercepts the pthread lock
/// functions, so it sees every acquire and release of a `Locked` and orders the accesses made
/// under it. `Mutex` on Linux takes its contended path (futex wait and wake) inside the
/// uninstrumented `libswiftSynchronization.so`, so a contended hand-over is invisible to the
/// sanitizer and correctly locked accesses are reported as data races.
///
/// The mutex is allocated once, when the `Locked` is created, and never moves. The lock is not
/// recursive: calling ``withLock(_:)`` again from inside its closure on the same instance
/// deadlocks.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// let value = counter.withLock { $0 }
/// ```
public final class Locked<State>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only reached through `withLock`, under `mutex`.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var state: State

    /// Creates a lock guarding `initial`.
    /// - Parameter initial: The first value of the guarded state.
    public init(_ initial: sending State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        state = initial
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the guarded state and returns what it returns.
    ///
    /// The lock is held for the whole call to `body` and released when it returns or throws.
    /// Keep `body` short, and do not call out to code that may take the same lock.
    /// - Parameter body: Reads or changes the state.
    /// - Returns: The value `body` returns.
    /// - Throws: What `body` throws, after the lock is released.
    @inlinable
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
