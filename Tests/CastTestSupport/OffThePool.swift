import Foundation

/// Runs CPU-bound test work on a thread of its own and returns its result.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core. A
/// test that computes for many seconds synchronously holds one of those threads; two of them
/// on a two-core machine starve every asynchronous test of the process: loopback servers
/// stop answering and clients miss their deadlines. Work moved to its own thread competes for
/// the cores through the kernel's scheduler instead, and takes no thread from Dispatch's
/// pools either. Check the result with `#expect` after the call.
package func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.name = "cast.test.cpu"
        thread.start()
    }
}
