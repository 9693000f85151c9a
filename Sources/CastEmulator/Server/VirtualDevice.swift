import CastCore
public import CastCrypto
public import CastNet
import CastNetCore
import CastSync
public import CastTime
public import Foundation

/// A virtual Cast device: a TLS Cast channel (8009), a setup HTTP server (8008) and its HTTPS
/// twin (8443), all bound to the device's own address, around a sans-I/O behaviour engine.
///
/// Sockets run on the event loops of `CastNet`: each sender's frames arrive on its
/// connection's loop and go straight to the engine, which sits with the fault state and the
/// connection table under one lock; no task or thread per connection. The engine's timers
/// become one clock timer at its next deadline.
///
/// ```swift
/// let identity = DeviceIdentity(friendlyName: "Living Room", deviceID: "0123456789abcdef0123456789abcdef")
/// let device = VirtualDevice(configuration: .init(identity: identity), options: .init(address: "127.0.0.2"))
/// try await device.start()
/// device.faults.ignoresPings = true
/// await device.stop()
/// ```
public final class VirtualDevice: Sendable {
    /// The ports a started device listens on (the chosen ones when 0 was asked for).
    public struct Ports: Sendable, Equatable {
        /// The TLS Cast channel.
        public var cast: Int
        /// The plain HTTP setup server (0 for a speaker group, which has none).
        public var http: Int
        /// The HTTPS setup server (0 for a speaker group, which has none).
        public var https: Int
    }

    private struct State {
        var engine: any HostedEngine
        var replyDelay = Duration.zero
        var connections: [Int: SenderLink] = [:]
        var nextConnection = 1
        var tickTimer: CastTimer?
        var tickDeadline: CastInstant?
        var listener: CastListener?
        var setupServers: [HTTPServer] = []
        var ports: Ports?
        var startedAt: CastInstant?
        var certificate: Certificate?
        var status = DeviceAdvertisedStatus.idle
        var stopped = false
        /// The media reads under way, by probe id (at most ``DeviceServerOptions/mediaFetchLimit``).
        var runningProbes: [UInt64: Task<Void, Never>] = [:]
        /// The media reads waiting for a free place, oldest first.
        var waitingProbes: [MediaProbeRequest] = []
        /// The open-ended streams read while their item plays, by probe id (at most one: the
        /// current item's).
        var followedStreams: [UInt64: Task<Void, Never>] = [:]
        /// Publishes the screen again while captions play (their window moves).
        var screenRefreshTimer: CastTimer?
    }

    /// Who the device is, its apps and timing.
    public let configuration: VirtualDeviceConfiguration
    /// Where the device listens.
    public let options: DeviceServerOptions
    let clock: any CastClock
    private let log: (any FrameLogSink)?
    private let advertiser: (any DeviceAdvertiser)?
    private let certificateKey: PrivateKey?
    /// The fleet's shared listening sockets, when the device serves its address on them.
    private let sharedPorts: SharedLoopbackPorts?
    private let currentDate: @Sendable () -> Date
    private let makeEngine: @Sendable (DeviceInstant) -> any HostedEngine
    private let state: Locked<State>
    /// Receives the device's ``SpeakerGroupEvent``s (set by ``SpeakerGroupHub``).
    private let multizoneHandler = Locked(Handlers.Multizone())
    /// Joins (`true`) or leaves the named group for `POST /control/group`; `false` when
    /// there is no such group (set by ``DeviceFleet``).
    private let groupControl = Locked(Handlers.GroupControl())

    /// The handlers inside structs: a function value held directly as `Locked`'s generic
    /// state is re-abstracted each time `withLock` passes it `inout`, which wraps it in two
    /// more thunks on every access, until the calls are slow and then overflow the stack.
    private enum Handlers {
        struct Multizone { var call: (@Sendable (SpeakerGroupEvent) -> Void)? }
        struct GroupControl { var call: (@Sendable (String, Bool) -> Bool)? }
    }
    /// Reads the media of `LOAD`s in ``MediaMode/fetch`` and ``MediaMode/auto``.
    let mediaFetcher: MediaFetcher
    /// The browsers following the device's screen, when it serves one.
    let screen: ScreenHub?

    /// Creates a device; it listens once ``start()`` is called.
    /// - Parameters:
    ///   - configuration: identity, apps, volume and timing of the device.
    ///   - options: address, ports and setup-server details.
    ///   - clock: the device's clock (timers, reply delays, uptime).
    ///   - log: where frames in and out and connection events are recorded, if anywhere.
    ///   - advertiser: told when the device starts, changes status and stops (mDNS).
    ///   - certificateKey: the RSA key of the TLS certificate; unless given, a 2048-bit key
    ///     generated once per process and shared by every device started without one (each
    ///     device still presents a certificate of its own).
    ///   - currentDate: the device's wall clock; the TLS certificate is valid from a minute
    ///     before the date it gives at ``start()``.
    ///   - sharedPorts: when given, the device serves its (loopback) address on these
    ///     sockets, one per port, instead of binding its own.
    public convenience init(
        configuration: VirtualDeviceConfiguration,
        options: DeviceServerOptions = DeviceServerOptions(),
        clock: any CastClock = SystemCastClock(),
        log: (any FrameLogSink)? = nil,
        advertiser: (any DeviceAdvertiser)? = nil,
        certificateKey: PrivateKey? = nil,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        sharedPorts: SharedLoopbackPorts? = nil
    ) {
        self.init(
            configuration: configuration,
            options: options,
            clock: clock,
            log: log,
            advertiser: advertiser,
            certificateKey: certificateKey,
            currentDate: currentDate,
            sharedPorts: sharedPorts
        ) { now in
            VirtualDeviceEngine(configuration: configuration, at: now)
        }
    }

    init(
        configuration: VirtualDeviceConfiguration,
        options: DeviceServerOptions,
        clock: any CastClock,
        log: (any FrameLogSink)?,
        advertiser: (any DeviceAdvertiser)?,
        certificateKey: PrivateKey?,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        sharedPorts: SharedLoopbackPorts? = nil,
        makeEngine: @escaping @Sendable (DeviceInstant) -> any HostedEngine
    ) {
        self.currentDate = currentDate
        self.sharedPorts = sharedPorts
        self.configuration = configuration
        self.options = options
        self.mediaFetcher = MediaFetcher(timeout: options.mediaRequestTimeout)
        self.screen =
            options.servesScreen
            ? ScreenHub(limit: options.screenClientLimit, bufferLimit: options.screenBufferLimit) : nil
        self.clock = clock
        self.log = log
        self.advertiser = advertiser
        self.certificateKey = certificateKey
        self.makeEngine = makeEngine
        self.state = Locked(State(engine: makeEngine(clock.now)))
    }

    deinit {
        state.withLock { state in
            state.tickTimer?.cancel()
            state.listener?.close()
            for server in state.setupServers { server.close() }
            for connection in state.connections.values { connection.close(reason: "device released") }
        }
    }

    // MARK: Lifecycle

    /// The ports the device listens on, once started.
    public var ports: Ports? { state.withLock { $0.ports } }

    /// The device's TLS certificate, once started.
    public var certificate: Certificate? { state.withLock { $0.certificate } }

    /// A copy of the behaviour engine's state now (receiver status, media status, apps), or
    /// `nil` when the device runs another engine.
    public var engineSnapshot: VirtualDeviceEngine? { state.withLock { $0.engine as? VirtualDeviceEngine } }

    /// The device's clock reading now, for ``VirtualDeviceEngine/mediaStatus(at:)``.
    public var engineNow: DeviceInstant { clock.now }

    /// The number of sender connections open now.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// The device's mDNS advertisement (valid once started).
    public var advertisement: DeviceAdvertisement {
        let (port, status) = state.withLock { ($0.ports?.cast ?? options.castPort, $0.status) }
        return DeviceAdvertisement(
            identity: configuration.identity,
            address: options.address,
            port: port,
            status: status,
            applicationIDs: configuration.applications.map(\.appID)
        )
    }

    /// Generates the TLS certificate and starts listening on the three ports.
    /// - Throws: `TCPError` (address in use or not available), `TLSError` or
    ///   `OpenSSLError` (certificate generation).
    /// - Returns: the ports the device listens on.
    @discardableResult
    public func start() async throws -> Ports {
        let validity = Double(options.certificateValidity.components.seconds)
        // A minute in the past, so a sender whose clock is slightly behind still accepts it.
        let identity = try SelfSignedCertificate.generate(
            commonName: configuration.identity.deviceID,
            notBefore: currentDate().addingTimeInterval(-60),
            validity: validity,
            key: certificateKey ?? VirtualDeviceTLSKey.shared.get()
        )
        var tls = TLSServerConfiguration(identity)
        tls.handshakeTimeout = options.requestTimeout
        let address = options.address
        var castConfiguration = CastConnectionConfiguration()
        castConfiguration.sendQueueLimit = options.sendQueueLimit
        castConfiguration.frameTimeout = options.frameTimeout
        let adopt: @Sendable (CastConnection) -> Void = { [weak self] connection in
            guard let self else {
                connection.close(reason: "the device is gone")
                return
            }
            self.adopt(connection)
        }
        let cast =
            if let sharedPorts {
                try CastListener(
                    on: sharedPorts.listener(port: options.castPort, role: "cast"),
                    address: address,
                    tls: tls,
                    configuration: castConfiguration,
                    maximumConnections: max(1, options.maximumSenderConnections),
                    handler: adopt
                )
            } else {
                try CastListener(
                    address: try SocketAddress(ipAddress: address, port: options.castPort),
                    tls: tls,
                    configuration: castConfiguration,
                    maximumConnections: max(1, options.maximumSenderConnections),
                    handler: adopt
                )
            }
        var servers: [HTTPServer] = []
        // The setup endpoints take small JSON bodies at most.
        var setup = HTTPServerConfiguration()
        setup.limits.maximumBodySize = 64 * 1024
        setup.requestTimeout = options.requestTimeout
        setup.maximumConnections = max(1, options.maximumSetupConnections)
        if options.servesSetup {
            do {
                servers.append(
                    try setupServer(port: options.httpPort, tls: nil, configuration: setup)
                )
                servers.append(
                    try setupServer(port: options.httpsPort, tls: tls, configuration: setup)
                )
            } catch {
                for server in servers { server.close() }
                cast.close()
                throw error
            }
        }
        let ports = Ports(
            cast: cast.localAddress.port,
            http: servers.first?.localAddress.port ?? 0,
            https: servers.last?.localAddress.port ?? 0
        )
        let now = clock.now
        state.withLock { state in
            state.listener = cast
            state.setupServers = servers
            state.ports = ports
            state.startedAt = now
            state.certificate = identity.certificate
            state.engine.setTLSCertificate(identity.certificate.derBytes)
            state.status = DeviceAdvertisedStatus(application: state.engine.runningApplication)
        }
        advertiser?.deviceDidStart(advertisement)
        return ports
    }

    /// The setup server on `port`: HTTPS when `tls` is given.
    private func setupServer(
        port: Int,
        tls: TLSServerConfiguration?,
        configuration: HTTPServerConfiguration
    ) throws -> HTTPServer {
        let routes = SetupHTTPServer.routes(for: self, secure: tls != nil)
        if let sharedPorts {
            return try HTTPServer(
                on: sharedPorts.listener(port: port, role: tls == nil ? "http" : "https"),
                address: options.address,
                tls: tls,
                routes: routes,
                configuration: configuration
            )
        }
        return try HTTPServer(
            address: try SocketAddress(ipAddress: options.address, port: port),
            tls: tls,
            routes: routes,
            configuration: configuration
        )
    }

    /// Stops listening, closes every connection (after its queued frames) and waits until
    /// they are closed. When it returns, the device's ports can be bound again (a device
    /// restarted on the same address and ports, as castvideos' built-in one is).
    public func stop() async {
        let wasRunning = state.withLock { $0.ports != nil && !$0.stopped }
        if wasRunning { advertiser?.deviceWillStop(advertisement) }
        let (listener, servers, connections) = state.withLock { state in
            state.stopped = true
            state.tickTimer?.cancel()
            state.tickTimer = nil
            state.tickDeadline = nil
            for task in state.runningProbes.values { task.cancel() }
            state.runningProbes = [:]
            state.waitingProbes = []
            for task in state.followedStreams.values { task.cancel() }
            state.followedStreams = [:]
            state.screenRefreshTimer?.cancel()
            state.screenRefreshTimer = nil
            let taken = (state.listener, state.setupServers, Array(state.connections.values))
            state.listener = nil
            state.setupServers = []
            state.connections = [:]
            return taken
        }
        listener?.close()
        for server in servers { server.close() }
        screen?.closeAll()
        for connection in connections { connection.close(reason: "device stopped") }
        await listener?.closeAndWait()
        for server in servers { await server.closeAndWait() }
        for connection in connections { _ = await connection.transport.closed() }
    }

    /// Seconds since ``start()``, on the device's clock.
    var uptime: Double {
        guard let startedAt = state.withLock({ $0.startedAt }) else { return 0 }
        return startedAt.duration(to: clock.now) / .seconds(1)
    }

    // MARK: Faults

    /// The behaviour faults in force (ignored pings, refused launches, a failing load).
    public var faults: DeviceFaults {
        get { state.withLock { $0.engine.faults } }
        set { state.withLock { $0.engine.faults = newValue } }
    }

    /// How long every frame the device sends is held back (zero for none). Frames keep their
    /// order on each connection.
    public var replyDelay: Duration {
        get { state.withLock { $0.replyDelay } }
        set { state.withLock { $0.replyDelay = max(.zero, newValue) } }
    }

    /// Applies a control request: lasting faults first, then the one-shot actions.
    public func apply(_ request: FaultControlRequest) {
        state.withLock { state in
            request.apply(to: &state.engine.faults, replyDelay: &state.replyDelay)
        }
        if request.activeInput != nil || request.standBy != nil {
            setInputState(activeInput: request.activeInput, standBy: request.standBy)
        }
        if request.restartApp { restartApplication() }
        if request.reboot { reboot() }
        if request.crashMidFrame { crashConnectionsMidFrame() }
        if request.dropConnections { dropAllConnections() }
        if request.sendGarbage { sendGarbageFrames() }
        if request.oversizeFrame { sendOversizeFrameHeaders() }
        if let milliseconds = request.trickleMilliseconds { trickleFrames(every: .milliseconds(milliseconds)) }
    }

    /// What the device keeps of its running app now (see ``VirtualDeviceSnapshot``); `nil`
    /// while only the idle screen runs.
    public func snapshot() -> VirtualDeviceSnapshot? {
        let now = clock.now
        return state.withLock { $0.engine.snapshot(at: now) }
    }

    /// Starts the app of a snapshot again under its old ids, with its media at the saved
    /// position, as if the device had kept running while its host was stopped.
    public func restore(_ snapshot: VirtualDeviceSnapshot) {
        let now = clock.now
        perform { state in state.engine.restore(snapshot, at: now) }
    }

    /// Sets the HDMI-CEC state (``DeviceInputState``) of a device with an HDMI input, as a TV
    /// switching input or going to standby would; every sender gets the new status. Members
    /// left `nil` keep their value.
    public func setInputState(activeInput: Bool? = nil, standBy: Bool? = nil) {
        let now = clock.now
        perform { state in
            // Without an HDMI input the engine only logs the request.
            let current = state.engine.currentInputState ?? DeviceInputState(isActiveInput: false, isStandBy: false)
            let wanted = DeviceInputState(
                isActiveInput: activeInput ?? current.isActiveInput,
                isStandBy: standBy ?? current.isStandBy
            )
            return state.engine.setInputState(wanted, at: now)
        }
    }

    /// Restarts the running app with new session and transport IDs; its senders get
    /// `CLOSE` and everyone the new `RECEIVER_STATUS`.
    public func restartApplication() {
        let now = clock.now
        perform { state in state.engine.restartApplication(at: now) }
    }

    /// Closes every sender connection at once; the receiver keeps its apps and media.
    public func dropAllConnections() {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            record(connection.id, event: "fault: connection dropped")
            connection.close(reason: "fault: connection dropped")
        }
    }

    /// Sends half of a frame on every sender connection, then closes it.
    public func crashConnectionsMidFrame() {
        let ping = CastMessage(
            sourceID: "receiver-0",
            destinationID: "sender-0",
            namespace: .heartbeat,
            text: #"{"type":"PING"}"#
        )
        let frame = (try? CastFrameEncoder.encode(ping.serializedBytes())) ?? [0, 0, 0, 16]
        let half = Array(frame.prefix(max(1, frame.count / 2)))
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            record(connection.id, event: "fault: \(half.count) of \(frame.count) frame bytes sent, then closed")
            connection.crash(sending: half)
        }
    }

    /// Sends every sender a frame whose body is not a `CastMessage`, then nothing more on
    /// that connection; it stays open until the sender closes it.
    public func sendGarbageFrames() {
        let body = [UInt8](repeating: 0xFF, count: 64)
        let frame = (try? CastFrameEncoder.encode(body)) ?? [0, 0, 0, 64] + body
        for connection in state.withLock({ Array($0.connections.values) }) {
            record(connection.id, event: "fault: a \(body.count)-byte frame that is not a CastMessage sent")
            connection.jam(sending: frame)
        }
    }

    /// Sends every sender the length prefix of a frame far over the 64 KiB limit
    /// (0x7FFFFFFF bytes), then nothing more on that connection; it stays open until the
    /// sender closes it.
    public func sendOversizeFrameHeaders() {
        let header: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF]
        for connection in state.withLock({ Array($0.connections.values) }) {
            record(connection.id, event: "fault: a frame header announcing 2147483647 bytes sent")
            connection.jam(sending: header)
        }
    }

    /// Writes a `PING` frame to every sender one byte per `interval`, and nothing else on
    /// that connection from then on; the connection stays open until the sender closes it.
    public func trickleFrames(every interval: Duration = .seconds(1)) {
        let ping = CastMessage(
            sourceID: "receiver-0",
            destinationID: "sender-0",
            namespace: .heartbeat,
            text: #"{"type":"PING"}"#
        )
        let frame = (try? CastFrameEncoder.encode(ping.serializedBytes())) ?? [0, 0, 0, 16]
        for connection in state.withLock({ Array($0.connections.values) }) {
            record(connection.id, event: "fault: trickling a \(frame.count)-byte frame, one byte per \(interval)")
            connection.trickle(frame, every: max(.milliseconds(1), interval))
        }
    }

    /// Reboots the receiver: every connection is dropped and the engine starts afresh (the
    /// lasting faults stay), so apps and media sessions come back with new session IDs.
    public func reboot() {
        let now = clock.now
        var following: String?
        let (connections, status) = state.withLock { state -> ([SenderLink], DeviceAdvertisedStatus?) in
            let connections = Array(state.connections.values)
            state.connections = [:]
            let faults = state.engine.faults
            let groups = (state.engine as? VirtualDeviceEngine)?.multizone
            following = (state.engine as? VirtualDeviceEngine)?.multizone.follower?.groupID
            state.engine = makeEngine(now)
            state.engine.faults = faults
            // The groups survive the reboot (they are the hub's); the playback does not.
            if var engine = state.engine as? VirtualDeviceEngine, var groups {
                groups.follower = nil
                groups.playing = []
                engine.multizone = groups
                engine.recomputeGroupVolume()
                state.engine = engine
            }
            if let certificate = state.certificate { state.engine.setTLSCertificate(certificate.derBytes) }
            let changed = updateStatus(&state)
            rescheduleTick(&state)
            return (connections, changed)
        }
        for connection in connections {
            record(connection.id, event: "fault: device rebooted")
            connection.close(reason: "fault: device rebooted")
        }
        if status != nil { advertiser?.deviceDidUpdate(advertisement) }
        if let following, let handler = multizoneHandler.withLock({ $0.call }) {
            handler(.leftGroupPlayback(groupID: following))
        }
    }

    // MARK: Screen

    /// The address of the device's TV screen (`http://ADDRESS:PORT/`) once started, or
    /// `nil` when it serves none (``DeviceServerOptions/servesScreen``).
    public var screenURL: String? {
        guard screen != nil, let port = ports?.http, port > 0 else { return nil }
        return "http://\(options.address):\(port)/"
    }

    /// The screen's state now, or `nil` when the device serves no screen or runs another
    /// engine.
    func screenState() -> ScreenState? {
        guard screen != nil else { return nil }
        let now = clock.now
        return state.withLock { state in
            (state.engine as? VirtualDeviceEngine).map { ScreenState(engine: $0, at: now) }
        }
    }

    /// A new event stream of the screen, starting with its state now (it may take the place of
    /// a browser that stopped reading); `nil` when the device serves no screen or is stopped.
    func openScreenStream() -> HTTPResponseStream? {
        guard let screen else { return nil }
        let now = clock.now
        return state.withLock { state in
            guard !state.stopped, let engine = state.engine as? VirtualDeviceEngine else { return nil }
            return screen.open(current: ScreenState(engine: engine, at: now))
        }
    }

    // MARK: Speaker groups

    /// Gives the device's ``SpeakerGroupEvent``s to `handler`, called after the device's lock is
    /// released (`nil` drops them).
    func setMultizoneHandler(_ handler: (@Sendable (SpeakerGroupEvent) -> Void)?) {
        multizoneHandler.withLock { $0.call = handler }
    }

    /// Lets the control endpoint join and leave groups through `handler`.
    func setGroupControl(_ handler: (@Sendable (_ group: String, _ joins: Bool) -> Bool)?) {
        groupControl.withLock { $0.call = handler }
    }

    /// Joins or leaves the group named `group` (the control endpoint's `/control/group`);
    /// `false` when the device's fleet has no such group.
    func controlGroupMembership(_ group: String, joins: Bool) -> Bool {
        guard let handler = groupControl.withLock({ $0.call }) else { return false }
        return handler(group, joins)
    }

    /// Feeds a change of the device's speaker groups to its engine (see ``MultizoneUpdate``).
    public func multizoneUpdate(_ update: MultizoneUpdate) {
        let now = clock.now
        perform { state in state.engine.multizoneUpdate(update, at: now) }
    }

    // MARK: Connections

    func adopt(_ transport: CastConnection) {
        let clock = self.clock
        let connection = state.withLock { state -> SenderLink? in
            guard !state.stopped else { return nil }
            let id = state.nextConnection
            state.nextConnection += 1
            let connection = SenderLink(
                id: id,
                transport: transport,
                clock: clock,
                queueLimit: options.sendQueueLimit
            ) { [weak self] message in
                self?.record(message, connection: id, direction: .outbound)
            }
            state.connections[id] = connection
            return connection
        }
        guard let connection else {
            transport.close(reason: "the device is stopping")
            return
        }
        let peer = transport.remoteAddress?.description ?? "unknown peer"
        record(connection.id, event: "connected from \(peer) (\(transport.tlsVersion ?? "no TLS"))")
        // The engine learns of the connection before its first frame can arrive: frames flow
        // only once the frame handler is set.
        let now = clock.now
        perform { state in state.engine.connectionOpened(ConnectionID(rawValue: UInt64(connection.id)), at: now) }
        transport.onClose { [weak self] error in
            self?.connectionEnded(connection, error: error)
        }
        transport.setFrameHandler { [weak self] body in
            self?.received(body, on: connection)
        }
    }

    /// One frame body from a sender: a `CastMessage` for the engine, or a reason to close.
    private func received(_ body: [UInt8], on connection: SenderLink) {
        let message: CastMessage
        do {
            message = try CastMessage(serializedBytes: body)
        } catch {
            record(connection.id, event: "closing: malformed CastMessage: \(error)")
            connection.close(reason: "malformed CastMessage")
            return
        }
        if let problem = Self.validityProblem(message) {
            record(connection.id, event: "closing: invalid CastMessage: \(problem)")
            connection.close(reason: "invalid CastMessage")
            return
        }
        handle(message, from: connection)
    }

    /// Chromium's validity rule: non-empty IDs and namespace, and the payload that the
    /// payload type names.
    static func validityProblem(_ message: CastMessage) -> String? {
        if message.sourceID.isEmpty { return "empty source_id" }
        if message.destinationID.isEmpty { return "empty destination_id" }
        if message.namespace.rawValue.isEmpty { return "empty namespace" }
        switch message.payloadType {
        case .string where message.payloadUTF8 == nil: return "payload_type STRING without payload_utf8"
        case .binary where message.payloadBinary == nil: return "payload_type BINARY without payload_binary"
        default: return nil
        }
    }

    private func handle(_ message: CastMessage, from connection: SenderLink) {
        record(message, connection: connection.id, direction: .inbound)
        let now = clock.now
        perform { state in
            state.engine.received(message, from: ConnectionID(rawValue: UInt64(connection.id)), at: now)
        }
    }

    private func connectionEnded(_ connection: SenderLink, error: CastConnectionError?) {
        record(connection.id, event: "closed: \(error.map { "\($0.code): \($0.reason)" } ?? "orderly close")")
        let now = clock.now
        perform { state in
            guard state.connections.removeValue(forKey: connection.id) != nil else { return [] }
            return state.engine.connectionClosed(ConnectionID(rawValue: UInt64(connection.id)), at: now)
        }
    }

    private func tick() {
        let now = clock.now
        perform { state in
            state.tickTimer = nil
            state.tickDeadline = nil
            return state.engine.tick(at: now)
        }
    }

    /// Runs one engine step under the lock and carries out its outputs.
    ///
    /// Frames are queued while the lock is held so that every connection sees the engine's
    /// messages in the order the engine produced them; queuing only schedules the writer
    /// task and runs no other code.
    private func perform(_ step: (inout State) -> [DeviceAction]) {
        let now = clock.now
        var events: [(Int, String)] = []
        var multizoneEvents: [SpeakerGroupEvent] = []
        let changed = state.withLock { state -> DeviceAdvertisedStatus? in
            guard !state.stopped else { return nil }
            let actions = step(&state)
            let delay = state.replyDelay
            let notBefore = delay > .zero ? now.advanced(by: delay) : nil
            for action in actions {
                switch action {
                case .send(let message, let id):
                    guard let connection = state.connections[Int(id.rawValue)] else { continue }
                    switch connection.send(message, body: message.serializedBytes(), notBefore: notBefore) {
                    case .queued, .closed:
                        break
                    case .tooLarge:
                        // Not expected: statuses are trimmed to a frame and sender ids are
                        // short. Logged rather than sent broken.
                        events.append((connection.id, "engine message over the frame size limit: dropped"))
                    case .full:
                        events.append((connection.id, "send queue full (\(options.sendQueueLimit) bytes): closing"))
                    }
                case .close(let id, let reason):
                    // The engine has forgotten the connection: it expects no connectionClosed.
                    guard let connection = state.connections.removeValue(forKey: Int(id.rawValue)) else { continue }
                    events.append((connection.id, "closing: \(reason)"))
                    connection.closeAfterQueuedFrames(reason: "closed by the device: \(reason)")
                case .log(let entry):
                    let id = entry.metadata["cast.connection"].flatMap { Int($0.filter(\.isNumber)) } ?? 0
                    events.append((id, entry.description))
                case .receiverStatusChanged, .appsChanged:
                    break
                case .probeMedia(let request):
                    state.waitingProbes.append(request)
                case .multizone(let event):
                    multizoneEvents.append(event)
                }
            }
            rescheduleTick(&state)
            events += scheduleProbes(&state)
            if let screen, screen.hasClients, let engine = state.engine as? VirtualDeviceEngine {
                let screenState = ScreenState(engine: engine, at: now)
                screen.publish(screenState)
                scheduleScreenRefresh(&state, for: screenState)
            }
            return updateStatus(&state)
        }
        for (id, event) in events { record(id, event: event) }
        if changed != nil { advertiser?.deviceDidUpdate(advertisement) }
        if !multizoneEvents.isEmpty, let handler = multizoneHandler.withLock({ $0.call }) {
            for event in multizoneEvents { handler(event) }
        }
    }

    /// Publishes the screen again after ``ScreenState/captionRefreshInterval`` while captions
    /// play, so that the window of cues the page holds follows the position.
    private func scheduleScreenRefresh(_ state: inout State, for screen: ScreenState) {
        guard state.screenRefreshTimer == nil, screen.needsRefresh, !state.stopped else { return }
        state.screenRefreshTimer = clock.schedule(after: ScreenState.captionRefreshInterval) { [weak self] in
            self?.perform { state in
                state.screenRefreshTimer = nil
                return []
            }
        }
    }

    /// Cancels the media reads the engine no longer waits for (a newer `LOAD`, a `STOP`, the
    /// item's end), which closes their connections, and starts waiting ones while fewer than
    /// ``DeviceServerOptions/mediaFetchLimit`` run. Runs under the lock after every engine
    /// step; returns the log events.
    private func scheduleProbes(_ state: inout State) -> [(Int, String)] {
        var events: [(Int, String)] = []
        for (id, task) in state.runningProbes where !state.engine.isProbePending(id) {
            task.cancel()
            state.runningProbes[id] = nil
            events.append((0, "media read \(id) superseded: cancelled"))
        }
        for (id, task) in state.followedStreams where !state.engine.isFollowingStream(id) {
            task.cancel()
            state.followedStreams[id] = nil
            events.append((0, "stream read \(id) ended with its item: cancelled"))
        }
        state.waitingProbes.removeAll { !state.engine.isProbePending($0.id) }
        let limit = max(1, options.mediaFetchLimit)
        while state.runningProbes.count < limit, !state.waitingProbes.isEmpty {
            let request = state.waitingProbes.removeFirst()
            state.runningProbes[request.id] = startProbe(request)
        }
        if !state.waitingProbes.isEmpty {
            events.append((0, "\(state.waitingProbes.count) media reads waiting for one of \(limit) places"))
        }
        return events
    }

    /// Reads the media of a `LOAD` in a task of its own, so that a slow media server never
    /// holds up the Cast channel, and feeds the outcome back to the engine. The fetcher's
    /// per-request timeout and body limit and the probe's overall deadline bound the task;
    /// cancelling it closes its connection.
    private func startProbe(_ request: MediaProbeRequest) -> Task<Void, Never> {
        let fetcher = mediaFetcher
        let clock = self.clock
        let deadline = options.mediaProbeDeadline
        return Task { [weak self] in
            let outcome = await Self.probe(request, fetcher: fetcher, clock: clock, deadline: deadline)
            guard !Task.isCancelled, let self else { return }
            let now = self.clock.now
            self.perform { state in
                state.runningProbes[request.id] = nil
                return state.engine.mediaProbed(request.id, outcome: outcome, at: now)
            }
            if case .success(let result) = outcome, let url = result.followURL {
                self.follow(url, probe: request.id)
            }
        }
    }

    /// Runs one media read against `deadline`, holding one of the process's read permits
    /// (``MediaReadPermits``): the read is cancelled (its connection closed) when the deadline
    /// passes first, waiting for a permit included, and the outcome is the network failure of
    /// its kind.
    static func probe(
        _ request: MediaProbeRequest,
        fetcher: MediaFetcher,
        clock: any CastClock,
        deadline: Duration,
        permits: MediaReadPermits = .shared
    ) async -> Result<MediaProbeResult, MediaLoadFailure> {
        let late: MediaLoadFailure =
            request.textTrackID != nil
            ? .textUnknown("no answer within \(deadline)")
            : .mediaNetwork("no answer within \(deadline)")
        return await withTaskGroup(of: Result<MediaProbeResult, MediaLoadFailure>?.self) { group in
            group.addTask {
                // A permit of the process first: the wait counts toward the deadline.
                try? await permits.withPermit { () async -> Result<MediaProbeResult, MediaLoadFailure> in
                    do throws(MediaLoadFailure) {
                        if request.textTrackID != nil {
                            return .success(try await fetcher.probeTextTrack(url: request.url))
                        }
                        return .success(try await fetcher.probe(url: request.url, contentType: request.contentType))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            group.addTask {
                try? await clock.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(late)
        }
    }

    /// Keeps reading an open-ended stream while its item plays (a receiver consuming a live
    /// stream; VLC paces its stream on this reader) and finishes the item when the server
    /// ends the stream. The read is cancelled, and its connection closed, as soon as its item
    /// ends, a `STOP` or a new `LOAD` comes (``scheduleProbes(_:)``), or the device stops.
    private func follow(_ url: String, probe id: UInt64) {
        let fetcher = mediaFetcher
        state.withLock { state in
            guard !state.stopped, state.engine.isFollowingStream(id) else { return }
            // Created under the lock: the task cannot remove its entry before it is stored.
            state.followedStreams[id] = Task { [weak self] in
                let end = await fetcher.follow(url) { [weak self] in
                    self?.state.withLock { $0.engine.isFollowingStream(id) } ?? false
                }
                guard let self else { return }
                self.state.withLock { _ = $0.followedStreams.removeValue(forKey: id) }
                guard let end, !Task.isCancelled else { return }
                let now = self.clock.now
                self.perform { state in state.engine.mediaStreamEnded(id, mediaSeconds: end.mediaSeconds, at: now) }
            }
        }
    }

    private func updateStatus(_ state: inout State) -> DeviceAdvertisedStatus? {
        let status = DeviceAdvertisedStatus(application: state.engine.runningApplication)
        guard status != state.status else { return nil }
        state.status = status
        return status
    }

    private func rescheduleTick(_ state: inout State) {
        let deadline = state.engine.nextDeadline
        guard deadline != state.tickDeadline else { return }
        state.tickTimer?.cancel()
        state.tickTimer = nil
        state.tickDeadline = deadline
        guard let deadline, !state.stopped else { return }
        let delay = max(.zero, clock.now.duration(to: deadline))
        // Without slack: the periodic statuses of devices sharing a process must not be
        // gathered into bursts that no fleet of real devices would send.
        state.tickTimer = clock.scheduleExactly(after: delay) { [weak self] in self?.tick() }
    }

    // MARK: Logging

    private func record(_ message: CastMessage, connection: Int, direction: FrameLogRecord.Direction) {
        guard let log else { return }
        log.record(
            FrameLogRecord(
                message: message,
                time: Date(),
                device: configuration.identity.friendlyName,
                connection: connection,
                direction: direction
            )
        )
    }

    private func record(_ connection: Int, event: String) {
        guard let log else { return }
        log.record(
            FrameLogRecord(
                time: Date(),
                device: configuration.identity.friendlyName,
                connection: connection,
                direction: .event,
                payload: event
            )
        )
    }
}
