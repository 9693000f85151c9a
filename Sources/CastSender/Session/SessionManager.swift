import CastSync
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Starts, ends, suspends and resumes sessions, and tells listeners (as
/// `GCKSessionManager`). Reach it through ``CastContext/sessionManager``.
///
/// ```swift
/// let session = try await context.sessionManager.startSession(with: device)
/// try await session.remoteMediaClient.load(request).result
/// await context.sessionManager.endSession()
/// ```
public final class SessionManager: Sendable {
    private struct State {
        /// Every change of the current session reaches ``SessionManager/observeCurrentSession()``.
        var current: CastSession? { didSet { observedCurrent.update(current) } }
        let observedCurrent = ObservedValue<CastSession?>(nil, isSame: ===)
        var waiters: [ObjectIdentifier: [CheckedContinuation<Result<CastSession, CastError>, Never>]] = [:]
        var endWaiters: [ObjectIdentifier: [CheckedContinuation<Void, Never>]] = [:]
        var suspendWaiters: [ObjectIdentifier: [CheckedContinuation<Void, Never>]] = [:]
    }

    private let state = Locked(State())
    let environment: SessionEnvironment

    /// How many checking connections wait for a session (``ConnectionHandover``; for tests).
    var parkedConnectionCount: Int { environment.handover.count }
    private let listeners: ListenerSet<any SessionManagerListener, SessionEvent>
    let onChange: @Sendable () -> Void

    init(environment: SessionEnvironment, onChange: @escaping @Sendable () -> Void) {
        self.environment = environment
        self.onChange = onChange
        listeners = ListenerSet(queue: environment.options.callbackQueue)
    }

    // MARK: State

    /// The current session, if any (connected, connecting or suspended).
    public var currentSession: CastSession? { state.withLock { $0.current } }

    /// Whether there is a connected session.
    public var hasConnectedSession: Bool { currentSession?.connectionState == .connected }

    /// The state of the current session, or ``CastSession/ConnectionState/disconnected``.
    public var connectionState: CastSession.ConnectionState { currentSession?.connectionState ?? .disconnected }

    // MARK: Listeners

    /// Adds a listener (held weakly).
    public func add(_ listener: any SessionManagerListener) { listeners.add(listener) }

    /// Removes a listener.
    public func remove(_ listener: any SessionManagerListener) { listeners.remove(listener) }

    /// A stream of every later session event.
    public func events() -> AsyncStream<SessionEvent> { listeners.stream() }

    /// A stream of the current session now (`nil` when there is none), then each session that
    /// becomes current and each `nil` when one ends. Follow a session's own state with
    /// ``CastSession/observeConnectionState()``.
    public func observeCurrentSession() -> AsyncStream<CastSession?> {
        state.withLock { $0.observedCurrent }.stream()
    }

    // MARK: Starting

    /// Starts a session on `device` and waits until it is connected.
    /// - Parameters:
    ///   - device: the device; its first address and its port are used unless given.
    ///   - host: the address to connect to, overriding the device's.
    ///   - port: the port to connect to, overriding the device's.
    ///
    /// Cancelling the waiting task ends the starting session: listeners hear
    /// `didFailToStart` with ``CastError/Code/cancelled`` and the call throws that error. A
    /// LAUNCH already sent is not undone (the receiver app may be running).
    /// - Throws: ``CastError``: ``CastError/Code/invalidState`` when a session already
    ///   exists, ``CastError/Code/cancelled`` when the task was cancelled, else the reason
    ///   the start failed.
    @discardableResult
    public func startSession(
        with device: CastDevice,
        host: String? = nil,
        port: Int? = nil
    ) async throws(CastError)
        -> CastSession
    {
        guard let address = host ?? device.addresses.first?.description else {
            throw CastError(.invalidRequest, "startSession: device \(device.idText) has no address")
        }
        let session = makeSession(device: device, host: address, port: port ?? Int(device.port), saved: nil)
        let installed = state.withLock { state -> Bool in
            guard state.current == nil else { return false }
            state.current = session
            return true
        }
        guard installed else {
            throw CastError(.invalidState, "startSession: a session already exists; end it first")
        }
        return try await run(session) { $0.start() }
    }

    /// Starts a session without waiting (as GCK's `startSessionWithDevice:`); listeners and
    /// ``events()`` hear the outcome. Returns `false` when a session already exists.
    ///
    /// Most code awaits ``startSession(with:host:port:)`` instead, which returns the session or
    /// throws why it could not start.
    @discardableResult
    public func startSessionWithoutWaiting(with device: CastDevice) -> Bool {
        guard state.withLock({ $0.current == nil }) else { return false }
        Task { _ = try? await startSession(with: device, host: nil, port: nil) }
        return true
    }

    /// Resumes the session saved by an earlier process (see ``CastOptions/sessionStoreURL``)
    /// without relaunching the receiver app.
    ///
    /// Cancelling the waiting task gives up resuming: the session ends (listeners hear
    /// `didEnd`), the saved session is forgotten, and the call throws
    /// ``CastError/Code/cancelled``.
    /// - Throws: ``CastError/Code/invalidState`` when nothing is saved or a session exists;
    ///   ``CastError/Code/cancelled`` when the task was cancelled; else why resuming failed
    ///   (the saved session is then forgotten).
    @discardableResult
    public func resumeSavedSession() async throws(CastError) -> CastSession {
        guard let saved = environment.store?.load() else {
            throw CastError(.invalidState, "resumeSavedSession: no saved session")
        }
        var host = saved.host
        var port = saved.port
        var device = CastDevice(
            id: CastDevice.parseID(saved.deviceID) ?? UUID(),
            friendlyName: saved.deviceName,
            addresses: IPAddress(saved.host).map { [$0] } ?? [],
            port: UInt16(clamping: saved.port)
        )
        // The device is rejoined by identity: where discovery sees it now, else where it was.
        if let found = await environment.locateDevice(saved.deviceID), let address = found.addresses.first {
            if address.description != host || Int(found.port) != port {
                environment.options.logger.log(
                    .info,
                    .session,
                    "saved device found at a new address",
                    metadata: ["cast.address": "\(address):\(found.port)", "cast.device-id": saved.deviceID]
                )
            }
            host = address.description
            port = Int(found.port)
            device = found
        }
        let session = makeSession(device: device, host: host, port: port, saved: saved)
        let installed = state.withLock { state -> Bool in
            guard state.current == nil else { return false }
            state.current = session
            return true
        }
        guard installed else {
            throw CastError(.invalidState, "resumeSavedSession: a session already exists")
        }
        return try await run(session) { $0.resume() }
    }

    /// Whether a saved session exists.
    public var hasSavedSession: Bool { environment.store?.load() != nil }

    // MARK: Ending

    /// Ends the current session and waits for it to end; stops the receiver app when
    /// `stopCasting` is set (default: ``CastOptions/stopReceiverApplicationWhenEndingSession``).
    ///
    /// Cancellation does not interrupt ending: the session ends either way, and the call
    /// returns once it has (ending is a CLOSE and, when stopping, one STOP request bounded by
    /// ``CastOptions/requestTimeout``).
    public func endSession(stopCasting: Bool? = nil) async {
        guard let session = currentSession else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let key = ObjectIdentifier(session)
            let current = state.withLock { state -> Bool in
                guard state.current === session else { return false }
                state.endWaiters[key, default: []].append(continuation)
                return true
            }
            if !current {
                continuation.resume()
                return
            }
            session.end(stopReceiverApp: stopCasting ?? environment.options.stopReceiverApplicationWhenEndingSession)
        }
    }

    /// Ends the current session and stops the receiver app; cancellation behaves as for
    /// ``endSession(stopCasting:)``.
    public func endSessionAndStopCasting() async {
        await endSession(stopCasting: true)
    }

    /// Suspends the current session (e.g. the app went to the background); it resumes with
    /// ``resumeSession()``.
    public func suspendSession(reason: SessionSuspendReason) {
        currentSession?.suspend(reason: reason)
    }

    /// Resumes a suspended current session now.
    public func resumeSession() {
        currentSession?.resume()
    }

    /// Suspends `session` if it is the connected current session and waits until it is
    /// suspended (its connection closed); returns at once otherwise. Cancellation does not
    /// stop the suspension; the call then returns without waiting.
    func suspend(_ session: CastSession, reason: SessionSuspendReason) async {
        let key = ObjectIdentifier(session)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Bool in
                guard state.current === session, session.connectionState == .connected, !Task.isCancelled else {
                    return false
                }
                state.suspendWaiters[key, default: []].append(continuation)
                return true
            }
            guard waiting else {
                continuation.resume()
                return
            }
            session.suspend(reason: reason)
            // The machine may have left `connected` between the check and the request (a
            // lost connection suspends it too and is waited for the same way); if it ended
            // instead, the end releases the waiter.
        }
    }

    // MARK: Internals

    private func makeSession(device: CastDevice, host: String, port: Int, saved: PersistedSession?) -> CastSession {
        CastSession(
            device: device,
            host: host,
            port: port,
            environment: environment,
            saved: saved,
            sink: { [weak self] session, notification in self?.received(notification, from: session) },
            deviceSink: { [weak self] event in self?.emit(event) }
        )
    }

    /// Starts or resumes `session` and waits for the outcome. Cancelling the waiting task ends
    /// the session (listeners hear `didFailToStart`, or `didEnd` for a resume) and the call
    /// throws ``CastError/Code/cancelled``.
    private func run(_ session: CastSession, _ begin: (CastSession) -> Void) async throws(CastError) -> CastSession {
        // Whether `begin` ran, and whether the task was cancelled: a cancellation that comes
        // before `begin` must not be lost, and one that comes after must end the session.
        let progress = Locked<(begun: Bool, cancelled: Bool)>((false, false))
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<CastSession, CastError>, Never>) in
                let key = ObjectIdentifier(session)
                let cancelledEarly = progress.withLock { progress -> Bool in
                    progress.begun = !progress.cancelled
                    return progress.cancelled
                }
                if cancelledEarly {
                    state.withLock { state in
                        if state.current === session { state.current = nil }
                    }
                    continuation.resume(returning: .failure(CastError(.cancelled, "the session start was cancelled")))
                    return
                }
                state.withLock { $0.waiters[key, default: []].append(continuation) }
                begin(session)
            }
        } onCancel: {
            let begun = progress.withLock { progress -> Bool in
                progress.cancelled = true
                return progress.begun
            }
            if begun { session.end(stopReceiverApp: false) }
        }
        if case .failure(let error) = result, progress.withLock({ $0.cancelled }), error.code != .cancelled {
            throw CastError(.cancelled, "the session start was cancelled", underlying: error)
        }
        return try result.get()
    }

    /// Called by a session inside its lock: only queues work.
    private func received(_ notification: SessionStateMachine.Notification, from session: CastSession) {
        let event: SessionEvent =
            switch notification {
            case .willStart: .willStart(session)
            case .didStart: .didStart(session)
            case .didFailToStart(let error): .didFailToStart(session, error)
            case .willEnd: .willEnd(session)
            case .didEnd(let error): .didEnd(session, error)
            case .didSuspend(let reason): .didSuspend(session, reason)
            case .willResume: .willResume(session)
            case .didResume: .didResume(session)
            case .didFailToResume(let error): .didFailToResume(session, error)
            }
        let key = ObjectIdentifier(session)
        let outcome: Result<CastSession, CastError>?
        let ends: Bool
        switch notification {
        case .didStart, .didResume:
            outcome = .success(session)
            ends = false
        case .didFailToStart(let error), .didFailToResume(let error):
            outcome = .failure(error)
            ends = true
        case .didEnd(let error):
            outcome = .failure(error ?? CastError(.cancelled, "the session ended"))
            ends = true
        default:
            outcome = nil
            ends = false
        }
        let releasesSuspendWaiters: Bool
        if case .didSuspend = notification { releasesSuspendWaiters = true } else { releasesSuspendWaiters = ends }
        let settle: @Sendable () -> Void = { [self] in
            let (waiters, endWaiters) = state.withLock { state in
                let waiters = outcome == nil ? [] : (state.waiters.removeValue(forKey: key) ?? [])
                var endWaiters: [CheckedContinuation<Void, Never>] = []
                if ends {
                    if state.current === session { state.current = nil }
                    endWaiters = state.endWaiters.removeValue(forKey: key) ?? []
                }
                if releasesSuspendWaiters { endWaiters += state.suspendWaiters.removeValue(forKey: key) ?? [] }
                return (waiters, endWaiters)
            }
            // The cast state first, so a caller that awaited the start (or the end) reads the
            // state that goes with it the moment it resumes.
            onChange()
            if let outcome { for waiter in waiters { waiter.resume(returning: outcome) } }
            for waiter in endWaiters { waiter.resume() }
        }
        listeners.emit(event, { [self] listener, event in event.deliver(to: listener, from: self) }, after: settle)
    }

    private func emit(_ event: SessionEvent) {
        listeners.emit(event) { [self] listener, event in event.deliver(to: listener, from: self) }
    }
}
