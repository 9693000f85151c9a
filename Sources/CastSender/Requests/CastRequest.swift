import CastSync
import Dispatch

/// One request sent to the receiver (as `GCKRequest`): its id, whether it is still in
/// flight, its error, a delegate, and an `async` result.
///
/// ```swift
/// let request = client.pause()
/// try await request.result          // throws CastError on failure, timeout or abort
/// ```
public final class CastRequest: Sendable, CustomStringConvertible {
    /// How a request ended.
    public enum Outcome: Sendable, Hashable {
        /// The receiver accepted it.
        case completed
        /// It failed.
        case failed(CastError)
        /// It was abandoned.
        case aborted(CastRequestAbortReason)
    }

    private struct State {
        var requestID: Int
        var outcome: Outcome?
        weak var delegate: (any CastRequestDelegate)?
        var waiters: [HandOffContinuation<Outcome>] = []
        var onCancel: (@Sendable (CastRequest) -> Void)?
        var onSettle: [@Sendable (Outcome) -> Void] = []
    }

    /// The id used when a request could not be sent.
    public static let invalidRequestID = -1

    private let state: Locked<State>
    private let callbackQueue: DispatchQueue
    /// What the request does, for messages: e.g. `"PAUSE"`.
    public let name: String

    init(name: String, requestID: Int = CastRequest.invalidRequestID, callbackQueue: DispatchQueue) {
        self.name = name
        self.callbackQueue = callbackQueue
        state = Locked(State(requestID: requestID))
    }

    /// A request that failed before it was sent.
    static func failed(_ name: String, _ error: CastError, callbackQueue: DispatchQueue) -> CastRequest {
        let request = CastRequest(name: name, callbackQueue: callbackQueue)
        request.settle(.failed(error))
        return request
    }

    /// The `requestId` on the wire, or ``invalidRequestID`` when it was never sent.
    public var requestID: Int { state.withLock { $0.requestID } }

    /// Whether the request is still waiting for its outcome.
    public var inProgress: Bool { state.withLock { $0.outcome == nil } }

    /// The failure, once the request failed or was aborted.
    public var error: CastError? {
        switch state.withLock({ $0.outcome }) {
        case .failed(let error)?: error
        case .aborted(let reason)?: Self.abortError(reason, name: name)
        default: nil
        }
    }

    /// How the request ended, or `nil` while in flight.
    public var outcome: Outcome? { state.withLock { $0.outcome } }

    /// Hears the outcome; held weakly. Set it right after creating the request: an outcome
    /// reached earlier is delivered when the delegate is set.
    public var delegate: (any CastRequestDelegate)? {
        get { state.withLock { $0.delegate } }
        set {
            let settled = state.withLock { state -> Outcome? in
                state.delegate = newValue
                return state.outcome
            }
            if let settled, let newValue { deliver(settled, to: newValue) }
        }
    }

    /// Waits for the outcome.
    ///
    /// Cancelling the waiting task cancels the request (as ``cancel()``): it settles as
    /// aborted with ``CastRequestAbortReason/cancelled``, its entry in the connection's
    /// request tracker is removed, a reply that arrives later is ignored, and this property
    /// throws ``CastError/Code/cancelled``. A request that already settled is not changed.
    /// - Throws: ``CastError``: the failure, or ``CastError/Code/replaced`` /
    ///   ``CastError/Code/cancelled`` when the request was aborted.
    public var result: Void {
        get async throws(CastError) {
            switch await waitForOutcome() {
            case .completed: return
            case .failed(let error): throw error
            case .aborted(let reason): throw Self.abortError(reason, name: name)
            }
        }
    }

    /// Waits for the outcome without throwing.
    ///
    /// Cancelling the waiting task cancels the request, as for ``result``; the outcome is then
    /// ``Outcome/aborted(_:)`` with ``CastRequestAbortReason/cancelled`` (unless the request
    /// had settled already).
    public func waitForOutcome() async -> Outcome {
        await withTaskCancellationHandler {
            await withHandOffContinuation { continuation in
                let settled = state.withLock { state -> Outcome? in
                    if let outcome = state.outcome { return outcome }
                    state.waiters.append(continuation)
                    return nil
                }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Abandons the request: it ends as aborted with ``CastRequestAbortReason/cancelled``
    /// and a later reply is ignored.
    public func cancel() {
        let hook = state.withLock { $0.outcome == nil ? $0.onCancel : nil }
        if settle(.aborted(.cancelled)) { hook?(self) }
    }

    public var description: String { "CastRequest(\(name), id \(requestID))" }

    // MARK: Owner side

    func attach(requestID: Int, onCancel: @escaping @Sendable (CastRequest) -> Void) {
        state.withLock { state in
            state.requestID = requestID
            state.onCancel = onCancel
        }
    }

    /// Calls `handler` with the outcome when the request settles (at once when it has),
    /// before anyone awaiting ``result`` resumes: what the owner does on an outcome has
    /// happened by the time the app sees it.
    func whenSettled(_ handler: @escaping @Sendable (Outcome) -> Void) {
        let settled = state.withLock { state -> Outcome? in
            if let outcome = state.outcome { return outcome }
            state.onSettle.append(handler)
            return nil
        }
        if let settled { handler(settled) }
    }

    /// Settles the request once; later calls return `false` and change nothing.
    @discardableResult
    func settle(_ outcome: Outcome) -> Bool {
        let settled = state.withLock {
            state -> (
                waiters: [HandOffContinuation<Outcome>], handlers: [@Sendable (Outcome) -> Void],
                delegate: (any CastRequestDelegate)?
            )? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            state.onCancel = nil
            defer {
                state.waiters.removeAll()
                state.onSettle.removeAll()
            }
            return (state.waiters, state.onSettle, state.delegate)
        }
        guard let settled else { return false }
        for handler in settled.handlers { handler(outcome) }
        for waiter in settled.waiters { waiter.resume(returning: outcome) }
        if let delegate = settled.delegate { deliver(outcome, to: delegate) }
        return true
    }

    private func deliver(_ outcome: Outcome, to delegate: any CastRequestDelegate) {
        callbackQueue.async {
            switch outcome {
            case .completed: delegate.requestDidComplete(self)
            case .failed(let error): delegate.request(self, didFailWithError: error)
            case .aborted(let reason): delegate.request(self, didAbortWithReason: reason)
            }
        }
    }

    private static func abortError(_ reason: CastRequestAbortReason, name: String) -> CastError {
        reason == .replaced
            ? CastError(.replaced, "\(name) was replaced by a newer request")
            : CastError(.cancelled, "\(name) was cancelled")
    }
}
