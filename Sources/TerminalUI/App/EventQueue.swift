import CastSync

/// The app loop's inbox: events from the input thread, signals and the app, handed out in
/// batches so that one frame is drawn per batch.
final class EventQueue: Sendable {
    private struct State {
        var events: [TerminalEvent] = []
        var waiter: HandOffContinuation<[TerminalEvent]>?
        var refreshQueued = false
        var closed = false
    }

    private let state = Locked(State())

    /// Adds events; a `.refresh` already waiting is not queued twice.
    func post(_ events: [TerminalEvent]) {
        let handOff = state.withLock { state -> (HandOffContinuation<[TerminalEvent]>, [TerminalEvent])? in
            guard !state.closed else { return nil }
            for event in events {
                if event == .refresh {
                    if state.refreshQueued { continue }
                    state.refreshQueued = true
                }
                state.events.append(event)
            }
            guard let waiter = state.waiter, !state.events.isEmpty else { return nil }
            defer {
                state.waiter = nil
                state.events = []
                state.refreshQueued = false
            }
            return (waiter, state.events)
        }
        if let (waiter, batch) = handOff {
            waiter.resume(returning: batch)
        }
    }

    /// Ends the queue: the waiting and every later ``next()`` return an empty batch.
    func close() {
        let waiter = state.withLock { state -> HandOffContinuation<[TerminalEvent]>? in
            state.closed = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: [])
    }

    /// The events waiting, after waiting for at least one; empty once the queue is closed or
    /// the task is cancelled.
    func next() async -> [TerminalEvent] {
        await withTaskCancellationHandler {
            await withHandOffContinuation { continuation in
                let ready = state.withLock { state -> [TerminalEvent]? in
                    if state.closed { return [] }
                    if !state.events.isEmpty {
                        defer {
                            state.events = []
                            state.refreshQueued = false
                        }
                        return state.events
                    }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            close()
        }
    }
}
