import CastAuth
import CastNet
import CastSync
import CastTime
import Dispatch
import Foundation

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
    /// cannot hold.
    private struct State {
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
    private let environment: SessionEnvironment
    private let state: Locked<State>
    private let sink: @Sendable (CastSession, SessionStateMachine.Notification) -> Void
    private let deviceSink: @Sendable (SessionEvent) -> Void
    /// The multizone status as last reported (see `CastSession+Multizone`).
    let multizoneState = Locked<MultizoneStatus?>(nil)
    /// Listeners and streams of multizone events.
    let multizoneListeners: ListenerSet<any CastDeviceStatusListener, MultizoneEvent>
    /// The id of the next fire-and-observe multizone request.
    private let multizoneRequestID = Locked(1_000_000)
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

    // MARK: Device volume

    /// Sets the device volume, 0 to 1 (receiver SET_VOLUME).
    ///
    /// - Returns: a request that fails at once with ``CastError/Code/invalidRequest`` for a
    ///   level outside [0, 1] (or not finite), and with ``CastError/Code/notAllowed``, sending
    ///   nothing, when the device reports a fixed volume (``isFixedVolume``): such devices
    ///   (an HDMI dongle whose TV owns the volume) ignore SET_VOLUME.
    @discardableResult
    public func setDeviceVolume(_ level: Double) -> CastRequest {
        guard level.isFinite, (0...1).contains(level) else {
            return CastRequest.failed(
                "SET_VOLUME",
                CastError(.invalidRequest, "setDeviceVolume: level \(level) is outside [0, 1]"),
                callbackQueue: environment.options.callbackQueue
            )
        }
        if let refusal = fixedVolumeRefusal("setDeviceVolume") { return refusal }
        environment.options.logger.log(.debug, .session, "device volume change", metadata: ["cast.level": "\(level)"])
        let serial = state.withLock { $0.machine.volumeChangeRequested(level: level) }
        let request = receiverRequest("SET_VOLUME") {
            SetDeviceVolumeRequest(requestID: $0, volume: Volume(level: level))
        }
        // Settled before anyone awaiting the request resumes: an app that awaited it never
        // sees the change still pending.
        request.whenSettled { [weak self] _ in
            self?.state.withLock { $0.machine.volumeChangeSettled(serial) }
        }
        return request
    }

    /// Moves the device volume by `steps` steps of the device's ``deviceVolumeIncrement``
    /// (its `stepInterval`), from the level of a change still in flight when there is one,
    /// so that quick presses add up; the result is clamped to [0, 1] and snapped to the step.
    /// - Returns: the SET_VOLUME request, or one that fails at once with
    ///   ``CastError/Code/notAllowed`` for a fixed-volume device.
    @discardableResult
    public func stepDeviceVolume(by steps: Int) -> CastRequest {
        let (base, increment) = state.withLock { state in
            (
                state.machine.pendingVolume?.level ?? state.machine.volume?.level ?? 0,
                state.machine.volume?.stepInterval ?? 0.05
            )
        }
        return setDeviceVolume(Self.stepped(base, by: steps, increment: increment))
    }

    /// `level` moved by `steps` increments, snapped to the increment grid and clamped to [0, 1].
    static func stepped(_ level: Double, by steps: Int, increment: Double) -> Double {
        let step = increment.isFinite && increment > 0.001 ? min(increment, 1) : 0.05
        let base = level.isFinite ? min(max(level, 0), 1) : 0
        let moved = ((base / step).rounded() + Double(steps)) * step
        return min(max((moved * 1000).rounded() / 1000, 0), 1)
    }

    /// Mutes or unmutes the device (receiver SET_VOLUME).
    ///
    /// - Returns: a request that fails with ``CastError/Code/notAllowed`` at once, sending
    ///   nothing, when the device reports a fixed volume (``isFixedVolume``).
    @discardableResult
    public func setDeviceMuted(_ muted: Bool) -> CastRequest {
        if let refusal = fixedVolumeRefusal("setDeviceMuted") { return refusal }
        return receiverRequest("SET_VOLUME") { SetDeviceVolumeRequest(requestID: $0, volume: Volume(muted: muted)) }
    }

    /// A failed request when the device volume cannot be changed, else `nil`.
    private func fixedVolumeRefusal(_ call: String) -> CastRequest? {
        guard isFixedVolume else { return nil }
        return CastRequest.failed(
            "SET_VOLUME",
            CastError(
                .notAllowed,
                "\(call): the device volume is fixed (controlType \"fixed\"); change it on the TV or amplifier"
            ),
            callbackQueue: environment.options.callbackQueue
        )
    }

    // MARK: Channels

    /// Registers a channel; it connects now if the session is connected and the app lists
    /// its namespace, or later when that becomes true.
    public func add(_ channel: CastChannel) {
        let found = state.withLock { state -> CastChannel.Route? in
            state.channels[channel.protocolNamespace] = channel
            return self.route(for: channel.protocolNamespace, in: state)
        }
        if let found { channel.connect(found) }
    }

    /// Unregisters a channel and disconnects it.
    public func remove(_ channel: CastChannel) {
        let removed = state.withLock { state -> Bool in
            guard state.channels[channel.protocolNamespace] === channel else { return false }
            state.channels[channel.protocolNamespace] = nil
            return true
        }
        if removed { channel.disconnect() }
    }

    private func route(for namespace: CastNamespace, in state: State) -> CastChannel.Route? {
        guard case .connected = state.machine.state, let connection = state.connection,
            let app = state.machine.application, let transportID = app.transportID,
            app.supports(namespace: namespace.rawValue)
        else { return nil }
        return CastChannel.Route(
            connection: connection,
            senderID: senderID,
            transportID: transportID,
            callbackQueue: environment.options.callbackQueue,
            logger: environment.options.logger
        )
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
    private func transition(_ event: (inout SessionStateMachine) -> [SessionStateMachine.Action]) {
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

    // MARK: Sequences

    private func runStart() async {
        do {
            let connection = try await openConnection()
            let status = try await receiverStatus(on: connection)
            let criteria = environment.options.discoveryCriteria
            let launch = environment.options.launchOptions ?? LaunchOptions()
            let app: ReceiverApplication
            if let running = Self.joinableApplication(for: criteria, in: status), !launch.relaunchIfRunning {
                app = try await join(running, options: launch, on: connection)
            } else {
                app = try await self.launch(criteria.applicationID, options: launch, on: connection)
            }
            try await attach(app, on: connection)
            transition { $0.startSucceeded() }
            connectChannels()
        } catch {
            environment.options.logger.log(
                .error,
                .session,
                "session start failed",
                metadata: ["cast.error": "\(error)"]
            )
            transition { $0.startFailed(error) }
        }
    }

    private func runResume() async {
        do throws(CastError) {
            let connection = try await openConnection()
            let status = try await receiverStatus(on: connection)
            let wanted = state.withLock { $0.machine.applicationSessionID }
            guard let app = status.applications?.first(where: { $0.sessionID != nil && $0.sessionID == wanted }) else {
                transition {
                    $0.resumeFailed(
                        CastError(
                            .applicationNotRunning,
                            "resume failed: receiver session \(wanted ?? "?") is no longer running on \(host):\(port)"
                        ),
                        retry: false
                    )
                }
                return
            }
            try await attach(app, on: connection)
            transition { $0.resumeSucceeded() }
            connectChannels()
        } catch {
            environment.options.logger.log(
                .info,
                .session,
                "resume attempt failed",
                metadata: ["cast.error": "\(error)"]
            )
            transition { $0.resumeFailed(error, retry: true) }
        }
    }

    private func runEnd(stopReceiverApp: Bool) async {
        let (connection, app) = state.withLock { ($0.connection, $0.machine.application) }
        if let connection {
            if stopReceiverApp, let sessionID = app?.sessionID {
                _ = try? await connection.request(
                    name: "STOP",
                    namespace: .receiver,
                    from: DeviceConnection.platformSenderID,
                    to: DeviceConnection.platformReceiverID
                ) { StopApplicationRequest(requestID: $0, sessionID: sessionID) }
            }
            if let transportID = app?.transportID {
                try? connection.send(CloseMessage(), namespace: .connection, from: senderID, to: transportID)
            }
        }
        transition { $0.endCompleted() }
    }

    private func openConnection() async throws(CastError) -> DeviceConnection {
        let options = environment.options
        let generation = state.withLock { state -> Int in
            state.generation += 1
            return state.generation
        }
        let route: @Sendable (DeviceConnectionEvent) -> Void = { [weak self] event in
            self?.handle(event, generation: generation)
        }
        // The connection that just checked this address, when the caller asked to keep it:
        // its platform virtual connection is open already.
        let adopted = environment.handover.take(host: host, port: port)
        let connection: DeviceConnection
        if let adopted {
            adopted.reroute(route)
            connection = adopted
            options.logger.log(
                .debug,
                .session,
                "adopted the checking connection",
                metadata: ["cast.address": "\(host):\(port)"]
            )
        } else {
            connection = try await DeviceConnection.open(
                host: host,
                port: port,
                connector: environment.connector,
                clock: environment.clock,
                logger: options.logger,
                heartbeatInterval: options.heartbeatInterval,
                heartbeatTimeout: options.heartbeatTimeout,
                requestTimeout: options.requestTimeout,
                onEvent: route
            )
        }
        let current = state.withLock { state -> Bool in
            guard state.generation == generation, state.machine.isActive else { return false }
            state.connection = connection
            return true
        }
        guard current else {
            connection.close()
            throw CastError(.cancelled, "the session ended while connecting to \(host):\(port)")
        }
        let authentication = try await environment.authenticate(connection, device: device, host: host, port: port)
        state.withLock { $0.machine.deviceAuthenticated(authentication) }
        if adopted == nil { try environment.connectToPlatform(on: connection) }
        return connection
    }

    private func receiverStatus(on connection: DeviceConnection) async throws(CastError) -> ReceiverStatus {
        let reply = try await connection.request(
            name: "GET_STATUS",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        ) { GetReceiverStatusRequest(requestID: $0) }
        guard case .receiver(.receiverStatus(let message)) = reply else {
            throw CastError(.invalidResponse, "GET_STATUS: the reply was not RECEIVER_STATUS")
        }
        apply(message.status, notify: false)
        return message.status
    }

    private func launch(
        _ appID: String,
        options: LaunchOptions,
        on connection: DeviceConnection
    ) async throws(CastError)
        -> ReceiverApplication
    {
        let credentials = environment.launchCredentials()
        if credentials != nil { try withholdingSecrets("LAUNCH of \(appID)") }
        let request = LaunchRequest(
            appID: appID,
            language: options.languageCode,
            supportedAppTypes: options.supportedAppTypes,
            appParams: credentials.map {
                LaunchRequest.AppParams(launchCheckerParams: LaunchRequest.LaunchCheckerParams(credentialsData: $0))
            },
            senderDeviceName: environment.options.senderDeviceName
        )
        environment.options.logger.log(.info, .session, "launching app", metadata: ["cast.app-id": appID])
        let reply = try await connection.request(
            name: "LAUNCH",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            timeout: environment.options.launchTimeout
        ) { id in
            var launch = request
            launch.requestID = id
            return launch
        }
        guard case .receiver(.receiverStatus(let message)) = reply,
            let app = Self.application(appID, in: message.status)
        else {
            throw CastError(.applicationNotRunning, "LAUNCH of \(appID): the receiver status does not list the app")
        }
        return app
    }

    /// Throws ``CastError/Code/secretsWithheld`` when the launch credentials may not go to
    /// this device (it did not authenticate and the app did not allow it).
    private func withholdingSecrets(_ operation: String) throws(CastError) {
        guard !sendsSecrets else { return }
        environment.options.logger.log(
            .error,
            .session,
            "launch credentials withheld from an unauthenticated device",
            metadata: ["cast.address": "\(host):\(port)", "cast.operation": operation]
        )
        throw CastError(
            .secretsWithheld,
            "\(operation): the launch credentials are not sent to \(host):\(port), which did not authenticate "
                + "(allow it with CastOptions.sendsSecretsToUnauthenticatedDevices)"
        )
    }

    private static func application(_ appID: String, in status: ReceiverStatus) -> ReceiverApplication? {
        status.applications?.first { ($0.appID == appID || $0.universalAppID == appID) && $0.transportID != nil }
    }

    private static func joinableApplication(
        for criteria: DiscoveryCriteria,
        in status: ReceiverStatus
    ) -> ReceiverApplication? {
        status.applications?.first { $0.transportID != nil && criteria.allowsJoining($0) }
    }

    /// Joins a running app. With launch credentials set, Cast Connect receivers expect them
    /// on a join as on a launch: a LAUNCH for the running app's ID carrying
    /// `appParams.launchCheckerParams.credentialsData`. The platform does not restart an app
    /// for a LAUNCH of its own ID: it hands the request to the app as a join (the Android TV
    /// app's `CastLaunchRequest` is "a request to launch or join") and answers with the
    /// RECEIVER_STATUS of the same session. Without credentials nothing is sent before the
    /// app's CONNECT.
    private func join(
        _ running: ReceiverApplication,
        options: LaunchOptions,
        on connection: DeviceConnection
    ) async throws(CastError) -> ReceiverApplication {
        let logger = environment.options.logger
        guard let credentials = environment.launchCredentials() else {
            logger.log(.info, .session, "joining running app", metadata: ["cast.app-id": running.appID])
            return running
        }
        try withholdingSecrets("joining \(running.appID)")
        logger.log(
            .info,
            .session,
            "joining running app with launch credentials",
            metadata: ["cast.app-id": running.appID, "cast.credentials-type": credentials.credentialsType ?? ""]
        )
        let request = LaunchRequest(
            appID: running.appID,
            language: options.languageCode,
            supportedAppTypes: options.supportedAppTypes,
            appParams: LaunchRequest.AppParams(
                launchCheckerParams: LaunchRequest.LaunchCheckerParams(credentialsData: credentials)
            ),
            senderDeviceName: environment.options.senderDeviceName
        )
        let reply = try await connection.request(
            name: "LAUNCH",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            timeout: environment.options.launchTimeout
        ) { id in
            var join = request
            join.requestID = id
            return join
        }
        guard case .receiver(.receiverStatus(let message)) = reply,
            let app = message.status.applications?.first(where: {
                $0.transportID != nil && ($0.appID == running.appID || $0.universalAppID == running.appID)
            })
        else {
            throw CastError(
                .applicationNotRunning,
                "joining \(running.appID) with credentials: the receiver status does not list the app"
            )
        }
        if app.sessionID != running.sessionID {
            logger.log(
                .warning,
                .session,
                "the receiver restarted the app to join it",
                metadata: ["cast.app-id": running.appID, "cast.session-id": app.sessionID ?? ""]
            )
        }
        return app
    }

    private func attach(_ app: ReceiverApplication, on connection: DeviceConnection) async throws(CastError) {
        guard let transportID = app.transportID else {
            throw CastError(.invalidResponse, "the receiver app \(app.appID) has no transportId")
        }
        state.withLock { $0.machine.applicationAttached(app) }
        try connection.send(
            ConnectMessage(
                origin: .object([:]),
                userAgent: environment.options.userAgent,
                senderInfo: SessionEnvironment.senderInfo,
                connType: .strong
            ),
            namespace: .connection,
            from: senderID,
            to: transportID
        )
        remoteMediaClient.attach(
            RemoteMediaClient.Link(
                connection: connection,
                senderID: senderID,
                transportID: transportID,
                appSessionID: app.sessionID,
                sendsSecrets: sendsSecrets
            )
        )
        if app.supports(namespace: CastNamespace.media.rawValue) {
            _ = try await connection.request(
                name: "GET_STATUS",
                namespace: .media,
                from: senderID,
                to: transportID
            ) { GetMediaStatusRequest(requestID: $0, sessionID: app.sessionID) }
        }
    }

    /// Connects the channels whose namespaces the app lists (after the state reached connected).
    private func connectChannels() {
        let routes = state.withLock { state in
            state.channels.values.compactMap { channel in
                route(for: channel.protocolNamespace, in: state).map { (channel, $0) }
            }
        }
        for (channel, route) in routes { channel.connect(route) }
    }

    // MARK: Inbound

    private func handle(_ event: DeviceConnectionEvent, generation: Int) {
        guard state.withLock({ $0.generation == generation }) else { return }
        switch event {
        case .receiverStatus(let status):
            apply(status, notify: true)
        case .media(let message, _):
            remoteMediaClient.receive(message)
        case .closeFrom(let source):
            let ours = state.withLock { $0.machine.isApplicationTransport(source) }
            if ours {
                transition {
                    $0.applicationStopped(
                        CastError(.applicationNotRunning, "the receiver app closed the connection (\(source))")
                    )
                }
            }
        case .custom(let namespace, let source, let text)
        where namespace == .multizone
            && source == DeviceConnection.platformReceiverID:
            receiveMultizone(text)
            // A channel the app registered on the namespace still hears it.
            let channel = state.withLock { $0.channels[namespace] }
            channel?.deliver(text)
        case .custom(let namespace, _, let text):
            let channel = state.withLock { $0.channels[namespace] }
            channel?.deliver(text)
        case .lost(let error, let reason):
            environment.options.logger.log(.info, .session, "connection lost", metadata: ["cast.error": error.reason])
            transition { $0.connectionLost(reason, error: error) }
        }
    }

    private func apply(_ received: ReceiverStatus, notify: Bool) {
        let appID = environment.options.receiverApplicationID
        let (status, clamped) = received.clampingWireNumbers()
        if !clamped.isEmpty {
            environment.options.logger.log(
                .warning,
                .session,
                "receiver volume out of range, clamped",
                metadata: [
                    "cast.volume-level": received.volume?.level.map { "\($0)" } ?? "none",
                    "cast.fields": clamped.joined(separator: ","),
                ]
            )
        }
        let change = state.withLock { $0.machine.receiverStatusReceived(status, receiverApplicationID: appID) }
        if notify {
            if let volume = change.volume {
                deviceSink(
                    SessionEvent(.didReceiveDeviceVolume(self, volume: volume.level ?? 0, muted: volume.muted ?? false))
                )
            }
            if let text = change.statusText {
                deviceSink(SessionEvent(.didReceiveDeviceStatus(self, statusText: text)))
            }
        }
        if change.applicationStopped {
            transition {
                $0.applicationStopped(
                    CastError(.applicationNotRunning, "the receiver app was stopped (by another sender or the device)")
                )
            }
        } else if notify {
            connectChannels()
        }
    }

    var callbackQueue: DispatchQueue { environment.options.callbackQueue }
    var logger: CastLogger { environment.options.logger }

    /// Sends a multizone request to `receiver-0` that the device answers by broadcast: the
    /// request completes once the message is handed to the connection.
    func sendMultizone(_ name: String, _ build: (Int) -> JSONValue) -> CastRequest {
        guard let connection = state.withLock({ $0.machine.state == .connected ? $0.connection : nil }) else {
            return CastRequest.failed(
                name,
                CastError(.deviceNotConnected, "\(name): the session is not connected"),
                callbackQueue: callbackQueue
            )
        }
        let id = multizoneRequestID.withLock { id -> Int in
            defer { id += 1 }
            return id
        }
        let message = CastMessage(
            sourceID: DeviceConnection.platformSenderID,
            destinationID: DeviceConnection.platformReceiverID,
            namespace: .multizone,
            text: build(id).description
        )
        let request = CastRequest(name: name, requestID: id, callbackQueue: callbackQueue)
        do {
            try connection.send(message)
            request.settle(.completed)
        } catch {
            request.settle(.failed(error))
        }
        return request
    }

    private func receiverRequest(_ name: String, _ build: @escaping (Int) -> any CastJSONMessage) -> CastRequest {
        let callbackQueue = environment.options.callbackQueue
        guard let connection = state.withLock({ $0.machine.state == .connected ? $0.connection : nil }) else {
            return CastRequest.failed(
                name,
                CastError(.deviceNotConnected, "\(name): the session is not connected"),
                callbackQueue: callbackQueue
            )
        }
        let request = CastRequest(name: name, callbackQueue: callbackQueue)
        let id = connection.sendRequest(
            name: name,
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID,
            build: build,
            completion: { request.settle(CastRequest.Outcome($0)) }
        )
        request.attach(requestID: id) { [weak connection] _ in connection?.cancelRequest(id) }
        return request
    }
}
