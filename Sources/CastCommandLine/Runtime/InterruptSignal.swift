import CastSync
import Dispatch
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns SIGINT and SIGTERM into an event a command can wait for, so Ctrl-C ends a
/// foreground command cleanly instead of killing it mid-write.
final class InterruptSignal: @unchecked Sendable {
    // Sendable: `sources` is written once in init and never read; `state` is in a `Locked`.
    private var sources: [any DispatchSourceSignal] = []
    private struct State {
        var fired = false
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }
    private let state = Locked(State())

    /// Installs the handlers (until the process ends).
    init() {
        let queue = DispatchQueue(label: "cast.signals")
        var made: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Whether a signal arrived.
    var hasFired: Bool { state.withLock { $0.fired } }

    /// Returns once a signal arrives, or when the task is cancelled.
    func wait() async {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.fired || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    private func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.fired = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}
