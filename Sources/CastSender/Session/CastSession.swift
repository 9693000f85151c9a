import CastAuth
import CastNet
import CastSync
import CastTime
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A session with a receiver app on one device (as `GCKCastSession`).
///
/// Sessions are created by ``SessionManager``. The session owns the device connection,
/// the ``remoteMediaClient`` and the registered channels; it suspends when the connection
/// is lost and resumes on the same receiver session without relaunching the app.
public final class CastSession: Sendable, CustomStringConvertible {
    /// Where the session stands.
    public enum ConnectionState: Sendable, Hashable {
        case disconnected
        case connecting
        case connected
        case disconnecting
    }

    /// The session's machine, which holds everything the session knows, and the handles it
    /// cannot hold. Only the machine and these handles: what the session knows of its app,
    /// volume and connection lives in the machine.
    struct State {
        /// Each change of where the machine stands reaches ``CastSession/observeConnectionState()``,
        /// and each change of the device volume it knows ``CastSession/observeDeviceVolume()``.
        var machine: SessionStateMachine {
            didSet {
                observedConnectionState.update(CastSession.connectionState(of: machine.state))
                observedVolume.update(machine.volume)
            }
        }
        let observedConnectionState = ObservedValue(ConnectionState.disconnected)
        let observedVolume = ObservedValue<DeviceVolume?>(nil)
        var connection: DeviceConnection?
        /// Counts connections, so events of an older one are ignored.
        var generation = 0
        var reconnectTimer: CastTimer?
        var channels: [CastNamespace: CastChannel] = [:]
        /// The connection closed last, until its transport has finished.
        var closing: DeviceConnection?
    }

    /// The device.
    public let device: CastDevice
    /// Media control for the receiver app.
    public let remoteMediaClient: RemoteMediaClient
    /// An executor that runs tasks on the thread that reads this session's connection.
    ///
    /// A task that prefers it is resumed, when a reply or status it awaits arrives, by the
    /// thread that read it, with no other thread woken; what it sends is written by that
    /// thread too. That saves a thread wake-up each way on every command (about a fifth of
    /// a round trip on loopback). While the session has no connection, or its connection has
    /// no such thread, tasks run on the global concurrent executor.
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(session.taskExecutor) {
    ///     try await session.remoteMediaClient.pause().result
    /// }
    /// ```
    ///
    /// - Important: While such a task runs, no connection sharing that thread is served: run
    ///   only short, non-blocking work under it.
    public var taskExecutor: any TaskExecutor { SessionTaskExecutor(session: self) }

    /// The executor of the current connection's thread, if there is one.
    var connectionTaskExecutor: (any TaskExecutor)? { state.withLock { $0.connection }?.taskExecutor }

    /// Whether the caller runs on the thread of the session's connection (for tests).
    var isOnConnectionThread: Bool { (connectionTaskExecutor as? EventLoop)?.isCurrentThread == true }

    /// The host the session connects to.
    public let host: String
    /// The port the session connects to.
    public let port: Int
    /// This sender's id for app messages (`sender-…`).
    let senderID: String
    /// The options, clock, connector and callbacks of the context the session belongs to.
    let environment: SessionEnvironment
    /// The session's machine and handles, under the session's one lock; the extensions
    /// (start, resume, launch, inbound, requests, channels, volume) read and change it here.
    let state: Locked<State>
    private let sink: @Sendable (CastSession, SessionStateMachine.Notification) -> Void
    /// Receives the device events (volume, status text) the session reports.
    let deviceSink: @Sendable (SessionEvent) -> Void
    /// The multizone status as last reported (see `CastSession+Multizone`).
    let multizoneState = Locked<MultizoneStatus?>(nil)
    /// Listeners and streams of multizone events.
    let multizoneListeners: ListenerSet<any CastDeviceStatusListener, MultizoneEvent>
    /// The id of the next fire-and-observe multizone request.
    let multizoneRequestID = Locked(1_000_000)
    /// The groups the device said it belongs to (`CASTING_GROUPS`).
    let castingGroupsState = Locked<[CastDevice.GroupReference]?>(nil)
    /// Tells discovery what the session learned of speaker groups.
    var groupMembersLearned: @Sendable (CastDevice, [CastDevice.GroupReference]) -> Void {
        environment.groupMembersLearned
    }
    var castingGroupsLearned: @Sendable (CastDevice, [CastDevice.GroupReference]) -> Void {
        environment.castingGroupsLearned
    }

    init(
        device: CastDevice,
        host: String,
        port: Int,
        environment: SessionEnvironment,
        saved: PersistedSession? = nil,
        sink: @escaping @Sendable (CastSession, SessionStateMachine.Notification) -> Void,
        deviceSink: @escaping @Sendable (SessionEvent) -> Void
    ) {
        self.device = device
        self.host = host
        self.port = port
        self.environment = environment
        self.sink = sink
        self.deviceSink = deviceSink
        senderID = saved?.senderID ?? "sender-\(UInt32.random(in: 100_000...999_999_999))"
        multizoneListeners = ListenerSet(queue: environment.options.callbackQueue)
        remoteMediaClient = RemoteMediaClient(
            clock: environment.clock,
            logger: environment.options.logger,
            callbackQueue: environment.options.callbackQueue,
            onLoaded: environment.mediaLoaded
        )
        state = Locked(
            State(
                machine: SessionStateMachine(
                    backoff: environment.options.reconnectBackoff,
                    random: environment.random,
                    applicationSessionID: saved?.applicationSessionID
                )
            )
        )
    }

    // MARK: Public state

    /// The receiver application session id (`sessionId`), once known.
    public var sessionID: String? { state.withLock { $0.machine.applicationSessionID } }

    /// The running receiver application, as last reported.
    public var applicationMetadata: ReceiverApplication? { state.withLock { $0.machine.application } }

    /// Why the connection was last lost (heartbeat silence, a broken or stalled frame, the
    /// link dropping), or `nil` while it never was.
    var lastConnectionLossError: CastError? { state.withLock { $0.machine.lastLossError } }

    /// The requests sent on the current connection and not yet settled.
    var pendingRequestCount: Int { state.withLock { $0.connection?.pendingRequestCount ?? 0 } }

    /// How the device proved itself on the current (or last) connection: `nil` until the
    /// first connection was accepted; unauthenticated only under an explicit
    /// `DeviceAuthenticationPolicy.Mode.off` or `DeviceAuthenticationPolicy.Mode.ifSupported`.
    public var deviceAuthenticationResult: DeviceAuthenticationResult? { state.withLock { $0.machine.authentication } }

    /// Whether the device proved it holds a key certified by a trusted root.
    public var isDeviceAuthenticated: Bool { deviceAuthenticationResult?.isAuthenticated ?? false }

    /// Whether secrets may be sent to the device: it authenticated, or the app allowed
    /// ``CastOptions/sendsSecretsToUnauthenticatedDevices``.
    var sendsSecrets: Bool {
        isDeviceAuthenticated || environment.options.sendsSecretsToUnauthenticatedDevices
    }

    /// Where the session stands.
    public var connectionState: ConnectionState { Self.connectionState(of: state.withLock { $0.machine.state }) }

    /// A stream of where the session stands now, then every change (connecting while it
    /// starts or resumes after a lost connection, connected, disconnecting, disconnected).
    public func observeConnectionState() -> AsyncStream<ConnectionState> {
        state.withLock { $0.observedConnectionState }.stream()
    }

    private static func connectionState(of state: SessionStateMachine.State) -> ConnectionState {
        switch state {
        case .idle, .ended: .disconnected
        case .starting, .suspended, .resuming: .connecting
        case .connected: .connected
        case .ending: .disconnecting
        }
    }

    /// Whether the session is suspended (lost its connection and waits to resume).
    public var isSuspended: Bool {
        if case .suspended = state.withLock({ $0.machine.state }) { return true }
        return false
    }

    /// The device's status text (e.g. the app's "Ready To Cast").
    public var deviceStatusText: String? { state.withLock { $0.machine.statusText } }

    /// The device volume, 0 to 1.
    public var currentDeviceVolume: Double { state.withLock { $0.machine.volume?.level ?? 0 } }

    /// Whether the device is muted.
    public var currentDeviceMuted: Bool { state.withLock { $0.machine.volume?.muted ?? false } }

    /// The step of the device volume (e.g. 0.05).
    public var deviceVolumeIncrement: Double { state.withLock { $0.machine.volume?.stepInterval ?? 0.05 } }

    /// Whether the device volume cannot be changed (`controlType` `fixed`, as GCK's
    /// `GCKDeviceStatus` reports it): ``setDeviceVolume(_:)`` and ``setDeviceMuted(_:)``
    /// then fail with ``CastError/Code/notAllowed``, and volume controls should be disabled.
    public var isFixedVolume: Bool { state.withLock { $0.machine.volume?.controlType == .fixed } }

    /// The device volume as last reported in RECEIVER_STATUS (level, mute, step, control
    /// type), or `nil` before the first status.
    public var deviceVolume: DeviceVolume? { state.withLock { $0.machine.volume } }

    /// A stream of the device volume now (``deviceVolume``), then every change the device
    /// reports: level, mute, step or control type.
    public func observeDeviceVolume() -> AsyncStream<DeviceVolume?> {
        state.withLock { $0.observedVolume }.stream()
    }

    /// The level of the newest device-volume change still in flight, or `nil`. Volume
    /// controls show it instead of the reported level until the device answers, so that a
    /// slider does not jump back while the device catches up.
    public var pendingDeviceVolume: Double? { state.withLock { $0.machine.pendingVolume?.level } }

    public var description: String {
        "CastSession(\(device.friendlyName ?? device.idText) at \(host):\(port), \(sessionID ?? "no app session"))"
    }

    // MARK: Lifecycle (manager side)

    /// Waits until the connection closed last is gone on the wire (bounded; see
    /// ``DeviceConnection/waitUntilTransportFinished(timeout:)``).
    func waitForClosedConnection() async {
        guard let closing = state.withLock({ $0.closing }) else { return }
        await closing.waitUntilTransportFinished()
        state.withLock { state in
            if state.closing === closing { state.closing = nil }
        }
    }

    func start() { transition { $0.startRequested() } }

    func resume() { transition { $0.resumeRequested() } }

    func end(stopReceiverApp: Bool) { transition { $0.endRequested(stopReceiverApp: stopReceiverApp) } }

    func suspend(reason: SessionSuspendReason) { transition { $0.suspendRequested(reason) } }

    /// Runs one machine event; notifications are handed to the sink inside the lock so they
    /// keep the order of the transitions (the sink only queues them).
    func transition(_ event: (inout SessionStateMachine) -> [SessionStateMachine.Action]) {
        let actions = state.withLock { state -> [SessionStateMachine.Action] in
            let actions = event(&state.machine)
            for action in actions {
                switch action {
                case .notify(let notification): sink(self, notification)
                case .persistSession: persist(state)
                case .clearPersistedSession: environment.store?.clear()
                default: break
                }
            }
            return actions
        }
        for action in actions { perform(action) }
    }

    private func perform(_ action: SessionStateMachine.Action) {
        switch action {
        case .notify(let notification):
            switch notification {
            case .didStart, .didResume:
                // A group lists its members; a speaker the groups it is in.
                if device.isGroup {
                    requestMultizoneStatus()
                } else if device.capabilities.contains(.audioOut), !device.capabilities.contains(.videoOut) {
                    requestCastingGroups()
                }
            default:
                break
            }
            if case .didEnd = notification { remoteMediaClient.sessionEnded() }
            if case .didFailToStart = notification { remoteMediaClient.sessionEnded() }
            if case .didFailToResume = notification { remoteMediaClient.sessionEnded() }
        case .runStart:
            run { session in await session.runStart() }
        case .runResume:
            run { session in await session.runResume() }
        case .runEnd(let stop):
            run { session in await session.runEnd(stopReceiverApp: stop) }
        case .scheduleReconnect(let delay):
            let timer = environment.clock.schedule(after: delay) { [weak self] in
                self?.transition { $0.reconnectDue() }
            }
            let old = state.withLock { state -> CastTimer? in
                defer { state.reconnectTimer = timer }
                return state.reconnectTimer
            }
            old?.cancel()
        case .cancelReconnect:
            state.withLock { state -> CastTimer? in
                defer { state.reconnectTimer = nil }
                return state.reconnectTimer
            }?.cancel()
        case .closeConnection:
            closeConnection()
        case .clearPersistedSession, .persistSession:
            break
        }
    }

    /// Runs a start, resume or end in a task of its own. No handle is kept: nothing cancels
    /// these tasks, and a handle would keep a finished task, with the stack memory its awaits
    /// used (about 12 KiB after a start), for the whole life of the session.
    private func run(_ body: @escaping @Sendable (CastSession) async -> Void) {
        Task { [self] in await body(self) }
    }

    private func closeConnection() {
        let (connection, channels) = state.withLock { state -> (DeviceConnection?, [CastChannel]) in
            defer {
                if let connection = state.connection { state.closing = connection }
                state.connection = nil
                state.generation += 1
            }
            return (state.connection, Array(state.channels.values))
        }
        remoteMediaClient.detach()
        for channel in channels { channel.disconnect() }
        connection?.close()
    }

    /// Saves the session; runs inside the state lock so the file matches the order of the
    /// transitions (a small write, at start, resume and end only).
    private func persist(_ state: State) {
        guard let store = environment.store else { return }
        let saved = { () -> PersistedSession? in
            guard let app = state.machine.application, let sessionID = app.sessionID, let transportID = app.transportID
            else {
                return nil
            }
            return PersistedSession(
                deviceID: device.idText,
                deviceName: device.friendlyName,
                host: host,
                port: port,
                applicationID: environment.options.receiverApplicationID,
                applicationSessionID: sessionID,
                transportID: transportID,
                mediaSessionID: remoteMediaClient.mediaStatus?.mediaSessionID,
                senderID: senderID
            )
        }()
        if let saved { store.save(saved) }
    }

}
