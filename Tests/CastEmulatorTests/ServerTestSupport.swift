import CastCore
import CastCrypto
import CastNet
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

// MARK: - A scripted engine

/// A stand-in for the behaviour engine that makes the server's I/O observable:
/// `PING` → `PONG`; `urn:x-cast:test.echo` messages come back; `{"type":"CLOSE_ME"}` asks for a
/// close after a goodbye frame; `{"type":"TICK_IN","ms":N}` asks for a tick N ms later, which
/// sends `{"type":"TICKED"}`.
struct ScriptedEngine: HostedEngine {
    var faults = DeviceFaults.none
    var nextDeadline: DeviceInstant?
    var runningApplication: ReceiverApplication?
    var generation = 0
    private var tickTarget: ConnectionID?

    static let echo: CastNamespace = "urn:x-cast:test.echo"

    mutating func connectionOpened(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] { [] }
    mutating func connectionClosed(_ id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] { [] }

    mutating func received(_ message: CastMessage, from id: ConnectionID, at now: DeviceInstant) -> [DeviceAction] {
        let payload = message.payloadUTF8.flatMap { try? JSONValue(parsing: $0) }
        let type = payload?["type"]?.stringValue
        func reply(_ text: String) -> CastMessage {
            CastMessage(
                sourceID: message.destinationID,
                destinationID: message.sourceID,
                namespace: message.namespace,
                text: text
            )
        }
        switch (message.namespace, type) {
        case (.heartbeat, "PING"):
            if faults.ignoresPings { return [] }
            return [.send(reply(#"{"type":"PONG"}"#), to: id)]
        case (Self.echo, "CLOSE_ME"):
            return [.send(reply(#"{"type":"BYE"}"#), to: id), .close(id, reason: .livenessTimeout)]
        case (Self.echo, "TICK_IN"):
            nextDeadline = now + .milliseconds(payload?["ms"]?.intValue ?? 0)
            tickTarget = id
            return []
        case (Self.echo, "LAUNCH_APP"):
            runningApplication = ReceiverApplication(appID: "CC1AD845")
            runningApplication?.displayName = "Default Media Receiver"
            runningApplication?.statusText = "Ready To Cast"
            return [.receiverStatusChanged]
        case (Self.echo, "GENERATION"):
            return [.send(reply(#"{"type":"GENERATION","value":\#(generation)}"#), to: id)]
        case (Self.echo, _):
            return [.send(reply(message.payloadUTF8 ?? ""), to: id)]
        default:
            return [.log(DeviceLogEntry(level: .warning, message: "message dropped"))]
        }
    }

    mutating func tick(at now: DeviceInstant) -> [DeviceAction] {
        guard let deadline = nextDeadline, now >= deadline, let target = tickTarget else { return [] }
        nextDeadline = nil
        let message = CastMessage(
            sourceID: "receiver-0",
            destinationID: "sender-0",
            namespace: Self.echo,
            text: #"{"type":"TICKED"}"#
        )
        return [.send(message, to: target)]
    }

    mutating func restartApplication(at now: DeviceInstant) -> [DeviceAction] {
        generation += 1
        return [.appsChanged]
    }
}

// MARK: - Recording sinks

/// Keeps every frame-log record.
final class RecordingLog: FrameLogSink {
    private let records = Locked<[FrameLogRecord]>([])
    /// Notified at each record.
    private let changes = ChangeSignal()

    func record(_ record: FrameLogRecord) {
        records.withLock { $0.append(record) }
        changes.notify()
    }

    var all: [FrameLogRecord] { records.withLock { $0 } }

    /// Waits until a record matches, for at most `timeout` of real time; each record wakes
    /// the wait.
    func waitFor(
        timeout: Duration = .seconds(60),
        _ predicate: @escaping @Sendable (FrameLogRecord) -> Bool
    ) async -> FrameLogRecord? {
        try? await changes.wait(until: "a matching frame-log record", within: timeout) { [self] in
            all.contains(where: predicate)
        }
        return all.first(where: predicate)
    }
}

/// Keeps every advertiser call.
final class RecordingAdvertiser: DeviceAdvertiser {
    enum Call: Equatable {
        case start(DeviceAdvertisement)
        case update(DeviceAdvertisement)
        case stop(DeviceAdvertisement)
    }

    private let calls = Locked<[Call]>([])
    var all: [Call] { calls.withLock { $0 } }

    func deviceDidStart(_ advertisement: DeviceAdvertisement) { calls.withLock { $0.append(.start(advertisement)) } }
    func deviceDidUpdate(_ advertisement: DeviceAdvertisement) { calls.withLock { $0.append(.update(advertisement)) } }
    func deviceWillStop(_ advertisement: DeviceAdvertisement) { calls.withLock { $0.append(.stop(advertisement)) } }
}

// MARK: - Devices under test

enum ServerTestDevices {
    static let identity = DeviceIdentity(
        friendlyName: "Test Device",
        deviceID: "0123456789abcdef0123456789abcdef",
        modelName: "Test Model"
    )

    /// A device with the scripted engine on ephemeral ports of 127.0.0.1, started.
    static func started(
        clock: any CastClock = SystemCastClock(),
        log: (any FrameLogSink)? = nil,
        advertiser: (any DeviceAdvertiser)? = nil,
        sendQueueLimit: Int = 1 << 20,
        controlEndpoint: Bool = true
    ) async throws -> VirtualDevice {
        var options = DeviceServerOptions.forTests()
        options.sendQueueLimit = sendQueueLimit
        options.controlEndpointEnabled = controlEndpoint
        let device = VirtualDevice(
            configuration: VirtualDeviceConfiguration(identity: identity),
            options: options,
            clock: clock,
            log: log,
            advertiser: advertiser,
            certificateKey: sharedKey
        ) { _ in ScriptedEngine() }
        try await device.start()
        return device
    }

    /// One RSA key for every test device (generating keys is slow).
    static let sharedKey: PrivateKey = {
        do {
            return try PrivateKey.generateRSA(bits: 2048)
        } catch {
            fatalError("cannot generate a test key: \(error)")
        }
    }()
}

extension DeviceServerOptions {
    /// ``ephemeral(address:)`` with a patient request timeout and the frame timeout multiplied
    /// by the run's slowdown: a loaded or sanitized run may take a while between connecting
    /// and sending.
    static func forTests(address: String = "127.0.0.1") -> DeviceServerOptions {
        var options = DeviceServerOptions.ephemeral(address: address)
        options.requestTimeout = TestTiming.patience
        options.frameTimeout = options.frameTimeout.map(TestTiming.scaled)
        return options
    }
}

// MARK: - A minimal sender

/// Speaks framed CastMessages over TLS to a device, for tests.
final class TestSender: Sendable {
    let connection: TCPConnection
    private let decoder = Locked(CastFrameDecoder())

    init(port: Int, address: String = "127.0.0.1") async throws {
        // A loaded run can hold a connection or a handshake up for many seconds: the
        // suite's patience, not the 10 s defaults.
        var tls = TLSClientConfiguration()
        tls.handshakeTimeout = TestTiming.patience
        connection = try await TCPConnection.connect(
            to: try SocketAddress(ipAddress: address, port: port),
            tls: tls,
            timeout: TestTiming.patience
        )
    }

    func send(_ message: CastMessage) async throws {
        try await connection.send(try CastFrameEncoder.encode(message.serializedBytes()))
    }

    func send(namespace: CastNamespace, _ text: String, destination: String = "receiver-0") async throws {
        try await send(CastMessage(sourceID: "sender-0", destinationID: destination, namespace: namespace, text: text))
    }

    func sendRaw(_ bytes: [UInt8]) async throws {
        try await connection.send(bytes)
    }

    /// The next message, or `nil` when the device closed the connection; fails after `timeout`.
    func receive(timeout: Duration = .seconds(60)) async throws -> CastMessage? {
        let connection = self.connection
        return try await withDeadline(
            timeout,
            onTimeout: { connection.close() },
            body: {
                while true {
                    if let body = try self.decoder.withLock({ try $0.nextFrame() }) {
                        return try CastMessage(serializedBytes: body)
                    }
                    guard let bytes = try await self.connection.receive() else { return nil }
                    self.decoder.withLock { $0.append(bytes) }
                }
            }
        )
    }

    /// Reads until the device closes the connection; returns every byte that came.
    func readToEnd(timeout: Duration = .seconds(60)) async throws -> [UInt8] {
        let connection = self.connection
        return try await withDeadline(
            timeout,
            onTimeout: { connection.close() },
            body: {
                var all: [UInt8] = []
                do {
                    while let bytes = try await self.connection.receive() { all += bytes }
                } catch {
                    // A reset after the close counts as the end.
                }
                return all
            }
        )
    }

    func close() { connection.close() }
}

// MARK: - HTTP

/// One HTTP/1.1 exchange over plain TCP or TLS; returns status line, headers and body.
func httpExchange(
    port: Int,
    request: String,
    body: [UInt8] = [],
    tls: Bool = false,
    address: String = "127.0.0.1"
) async throws -> (status: Int, head: String, body: [UInt8]) {
    let connection = try await TCPConnection.connect(
        to: try SocketAddress(ipAddress: address, port: port),
        tls: tls ? TLSClientConfiguration() : nil
    )
    defer { connection.close() }
    // One request per connection: ask the server to close after answering.
    var text = request
    if let lineEnd = text.range(of: "\r\n") {
        // HTTP/1.1 requests name the host; the device's screen and control endpoints check it.
        let host = text.range(of: "\r\nHost:", options: .caseInsensitive) == nil ? "Host: \(address):\(port)\r\n" : ""
        text.replaceSubrange(lineEnd, with: "\r\nConnection: close\r\n" + host)
    }
    try await connection.send(Array(text.utf8) + body)
    let all = try await withDeadline(
        .seconds(60),
        onTimeout: { connection.close() },
        body: {
            var all: [UInt8] = []
            while let bytes = try await connection.receive() { all += bytes }
            return all
        }
    )
    guard let split = all.indices.first(where: { all[$0...].starts(with: [13, 10, 13, 10]) }) else {
        return (0, String(decoding: all, as: UTF8.self), [])
    }
    let head = String(decoding: all[..<split], as: UTF8.self)
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, head, Array(all[(split + 4)...]))
}
