import CastCore
import CastNet
import Foundation
import Synchronization

/// A virtual Cast device: a TLS Cast channel (8009), a setup HTTP server (8008) and its HTTPS
/// twin (8443), all bound to the device's own address, around a sans-I/O behaviour engine.
///
/// Sockets run on the event loops of `CastNet`; the engine, the fault state and the
/// connection table sit under one lock. Each sender connection has a reader and a writer
/// task (tasks, not threads); the engine's timers become one clock timer at its next deadline.
///
/// ```swift
/// let device = VirtualDevice(configuration: .init(name: "Living Room", address: "127.0.0.2"))
/// try await device.start()
/// device.setFaults(DeviceFaults(ignoresPings: true))
/// await device.stop()
/// ```
public final class VirtualDevice: Sendable {
    /// The ports a started device listens on (the chosen ones when 0 was asked for).
    public struct Ports: Sendable, Equatable {
        /// The TLS Cast channel.
        public var cast: Int
        /// The plain HTTP setup server.
        public var http: Int
        /// The HTTPS setup server.
        public var https: Int
    }

    private struct State {
        var engine: any HostedEngine
        var injector = FaultInjector()
        var connections: [Int: DeviceConnection] = [:]
        var connectionTasks: [Int: Task<Void, Never>] = [:]
        var nextConnection = 1
        var tickTimer: CastTimer?
        var tickDeadline: CastInstant?
        var listeners: [TCPListener] = []
        var acceptTasks: [Task<Void, Never>] = []
        var ports: Ports?
        var startedAt: CastInstant?
        var certificate: Certificate?
        var status = DeviceAdvertisedStatus.idle
        var stopped = false
    }

    /// Who the device is and where it listens.
    public let configuration: VirtualDeviceConfiguration
    private let clock: any CastClock
    private let log: (any FrameLogSink)?
    private let advertiser: (any DeviceAdvertiser)?
    private let certificateKey: PrivateKey?
    private let makeEngine: @Sendable () -> any HostedEngine
    private let state: Mutex<State>

    init(
        configuration: VirtualDeviceConfiguration,
        clock: any CastClock,
        log: (any FrameLogSink)?,
        advertiser: (any DeviceAdvertiser)?,
        certificateKey: PrivateKey?,
        makeEngine: @escaping @Sendable () -> any HostedEngine
    ) {
        self.configuration = configuration
        self.clock = clock
        self.log = log
        self.advertiser = advertiser
        self.certificateKey = certificateKey
        self.makeEngine = makeEngine
        self.state = Mutex(State(engine: makeEngine()))
    }

    deinit {
        state.withLock { state in
            state.tickTimer?.cancel()
            for listener in state.listeners { listener.close() }
            for task in state.acceptTasks { task.cancel() }
            for connection in state.connections.values { connection.abort() }
        }
    }

    // MARK: Lifecycle

    /// The ports the device listens on, once started.
    public var ports: Ports? { state.withLock { $0.ports } }

    /// The device's TLS certificate, once started.
    public var certificate: Certificate? { state.withLock { $0.certificate } }

    /// The number of sender connections open now.
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// The device's mDNS advertisement (valid once started).
    public var advertisement: DeviceAdvertisement {
        let (port, status) = state.withLock { ($0.ports?.cast ?? configuration.castPort, $0.status) }
        return DeviceAdvertisement(configuration: configuration, port: port, status: status)
    }

    /// Generates the TLS certificate and starts listening on the three ports.
    /// - Throws: ``TCPError`` (address in use or not available), ``TLSError`` or
    ///   `OpenSSLError` (certificate generation).
    /// - Returns: the ports the device listens on.
    @discardableResult
    public func start() async throws -> Ports {
        let validity = Double(configuration.certificateValidity.components.seconds)
        // A minute in the past, so a sender whose clock is slightly behind still accepts it.
        let identity = try SelfSignedCertificate.generate(
            commonName: configuration.compactID,
            notBefore: Date().addingTimeInterval(-60),
            validity: validity,
            key: certificateKey
        )
        let tls = TLSServerConfiguration(identity)
        let address = configuration.address
        let cast = try TCPListener(
            address: try SocketAddress(ipAddress: address, port: configuration.castPort),
            tls: tls
        )
        let http: TCPListener
        let https: TCPListener
        do {
            http = try TCPListener(address: try SocketAddress(ipAddress: address, port: configuration.httpPort))
            do {
                https = try TCPListener(
                    address: try SocketAddress(ipAddress: address, port: configuration.httpsPort),
                    tls: tls
                )
            } catch {
                http.close()
                throw error
            }
        } catch {
            cast.close()
            throw error
        }
        let ports = Ports(cast: cast.localAddress.port, http: http.localAddress.port, https: https.localAddress.port)
        let setup = SetupHTTPServer(device: self, clock: clock)
        let tasks = [
            Task { [weak self] in
                for await connection in cast.connections {
                    guard let self else {
                        connection.close()
                        continue
                    }
                    self.adopt(connection)
                }
            },
            Task { for await connection in http.connections { setup.serve(connection, secure: false) } },
            Task { for await connection in https.connections { setup.serve(connection, secure: true) } },
        ]
        let now = clock.now
        state.withLock { state in
            state.listeners = [cast, http, https]
            state.acceptTasks = tasks
            state.ports = ports
            state.startedAt = now
            state.certificate = identity.certificate
            state.status = state.engine.advertisedStatus
        }
        advertiser?.deviceDidStart(advertisement)
        return ports
    }

    /// Stops listening, closes every connection and waits for their tasks to end.
    public func stop() async {
        let wasRunning = state.withLock { $0.ports != nil && !$0.stopped }
        if wasRunning { advertiser?.deviceWillStop(advertisement) }
        let (connections, tasks) = state.withLock { state -> ([DeviceConnection], [Task<Void, Never>]) in
            state.stopped = true
            state.tickTimer?.cancel()
            state.tickTimer = nil
            state.tickDeadline = nil
            for listener in state.listeners { listener.close() }
            state.listeners = []
            let tasks = state.acceptTasks + Array(state.connectionTasks.values)
            state.acceptTasks = []
            let connections = Array(state.connections.values)
            state.connections = [:]
            return (connections, tasks)
        }
        for connection in connections { connection.abort() }
        for task in tasks { await task.value }
    }

    /// Seconds since ``start()``, on the device's clock.
    var uptime: Double {
        guard let startedAt = state.withLock({ $0.startedAt }) else { return 0 }
        return startedAt.duration(to: clock.now) / .seconds(1)
    }

    // MARK: Faults

    /// The lasting faults in force.
    public var faults: DeviceFaults { state.withLock { $0.injector.faults } }

    /// Replaces the lasting faults.
    public func setFaults(_ faults: DeviceFaults) {
        state.withLock { $0.injector.faults = faults }
    }

    /// Applies a control request: lasting faults first, then the one-shot actions.
    /// - Returns: the lasting faults now in force.
    @discardableResult
    public func apply(_ request: FaultControlRequest) -> DeviceFaults {
        let faults = state.withLock { state in
            state.injector.faults = request.applied(to: state.injector.faults)
            return state.injector.faults
        }
        if request.restart {
            restart()
        } else if request.crashMidFrame {
            crashConnectionsMidFrame()
        } else if request.dropConnections {
            dropAllConnections()
        }
        return faults
    }

    /// Closes every sender connection at once; the receiver keeps its apps and media.
    public func dropAllConnections() {
        let connections = state.withLock { Array($0.connections.values) }
        for connection in connections {
            record(connection.id, event: "fault: connection dropped")
            connection.abort()
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
            if !connection.enqueue(.crash(half)) { connection.abort() }
        }
    }

    /// Restarts the receiver: every connection is dropped and the engine starts afresh, so
    /// apps and media sessions come back with new session IDs.
    public func restart() {
        let (connections, status) = state.withLock { state -> ([DeviceConnection], DeviceAdvertisedStatus?) in
            let connections = Array(state.connections.values)
            state.connections = [:]
            state.engine = makeEngine()
            let changed = updateStatus(&state)
            rescheduleTick(&state)
            return (connections, changed)
        }
        for connection in connections {
            record(connection.id, event: "fault: device restarted")
            connection.abort()
        }
        if status != nil { advertiser?.deviceDidUpdate(advertisement) }
    }

    // MARK: Connections

    private func adopt(_ transport: TCPConnection) {
        let connection = state.withLock { state -> DeviceConnection? in
            guard !state.stopped else { return nil }
            let id = state.nextConnection
            state.nextConnection += 1
            let connection = DeviceConnection(id: id, transport: transport, queueLimit: configuration.sendQueueLimit)
            state.connections[id] = connection
            return connection
        }
        guard let connection else {
            transport.close()
            return
        }
        let peer = transport.remoteAddress?.description ?? "unknown peer"
        record(connection.id, event: "connected from \(peer) (\(transport.tlsVersion ?? "no TLS"))")
        let clock = self.clock
        let task = Task { [weak self] in
            await withDiscardingTaskGroup { group in
                group.addTask {
                    await connection.runWriter(clock: clock) { message in
                        self?.record(message, connection: connection.id, direction: .outbound)
                    }
                }
                let reason = await connection.runReader(maximumBodySize: CastFrameDecoder.maximumBodySize) { message in
                    self?.handle(message, from: connection)
                }
                connection.abort()
                self?.connectionEnded(connection, reason: reason)
            }
        }
        let started = state.withLock { state -> Bool in
            guard state.connections[connection.id] != nil else { return false }
            state.connectionTasks[connection.id] = task
            return true
        }
        if !started { task.cancel() }
        perform { state in state.engine.connectionOpened(connection.id, at: clock.now) }
    }

    private func handle(_ message: CastMessage, from connection: DeviceConnection) {
        record(message, connection: connection.id, direction: .inbound)
        let now = clock.now
        perform { state in
            switch state.injector.judge(message) {
            case .pass:
                return state.engine.receive(message, from: connection.id, at: now)
            case .swallow:
                return []
            case .reply(let reply):
                return [.send(reply, to: connection.id)]
            }
        }
    }

    private func connectionEnded(_ connection: DeviceConnection, reason: String) {
        record(connection.id, event: "closed: \(reason)")
        let now = clock.now
        perform { state in
            state.connectionTasks[connection.id] = nil
            guard state.connections.removeValue(forKey: connection.id) != nil else { return [] }
            return state.engine.connectionClosed(connection.id, at: now)
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
    private func perform(_ step: (inout State) -> [HostedEngineOutput]) {
        let now = clock.now
        var overflowed: [DeviceConnection] = []
        let changed = state.withLock { state -> DeviceAdvertisedStatus? in
            guard !state.stopped else { return nil }
            let outputs = step(&state)
            let delay = state.injector.faults.replyDelay
            let notBefore = delay > .zero ? now.advanced(by: delay) : nil
            for output in outputs {
                switch output {
                case .send(let message, let id):
                    guard let connection = state.connections[id] else { continue }
                    guard let frame = try? CastFrameEncoder.encode(message.serializedBytes()) else { continue }
                    if !connection.enqueue(.frame(frame, message: message, notBefore: notBefore)) {
                        overflowed.append(connection)
                    }
                case .close(let id):
                    guard let connection = state.connections[id] else { continue }
                    if !connection.enqueue(.close) { overflowed.append(connection) }
                }
            }
            rescheduleTick(&state)
            return updateStatus(&state)
        }
        for connection in overflowed {
            record(connection.id, event: "send queue full (\(configuration.sendQueueLimit) frames): closing")
            connection.abort()
        }
        if changed != nil { advertiser?.deviceDidUpdate(advertisement) }
    }

    private func updateStatus(_ state: inout State) -> DeviceAdvertisedStatus? {
        let status = state.engine.advertisedStatus
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
        state.tickTimer = clock.schedule(after: delay) { [weak self] in self?.tick() }
    }

    // MARK: Logging

    private func record(_ message: CastMessage, connection: Int, direction: FrameLogRecord.Direction) {
        guard let log else { return }
        log.record(
            FrameLogRecord(
                message: message,
                time: Date(),
                device: configuration.name,
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
                device: configuration.name,
                connection: connection,
                direction: .event,
                payload: event
            )
        )
    }
}
