import CastCore
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// A loopback media server that misbehaves on purpose, over real sockets: it counts the
/// requests it read and the connections the client closed.
final class HostileMediaServer: Sendable {
    enum Behaviour: Sendable {
        /// Reads the request and never answers.
        case silent
        /// Answers one byte of a response head per second.
        case trickle
        /// Sends a status line, then header fields without end.
        case endlessHeaders
    }

    let listener: TCPListener
    let task: Task<Void, Never>
    /// Requests read in full.
    let requests = WatchedCount()
    /// Connections the client closed.
    let closedByClient = WatchedCount()

    var url: String { "http://127.0.0.1:\(listener.localAddress.port)/media.mp4" }

    init(_ behaviour: Behaviour) throws {
        let listener = try TCPListener(address: .loopbackIPv4())
        self.listener = listener
        let requests = self.requests
        let closed = self.closedByClient
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await connection in listener.connections {
                    group.addTask {
                        defer { connection.close() }
                        var request: [UInt8] = []
                        while !request.endsWithBlankLine {
                            guard let bytes = try? await connection.receive(), request.count < 8192 else { return }
                            request += bytes
                        }
                        requests.add()
                        let clientClosed = await Self.misbehave(behaviour, on: connection)
                        if clientClosed { closed.add() }
                    }
                }
            }
        }
    }

    /// Misbehaves until the client closes the connection (`true`) or the task is cancelled.
    private static func misbehave(_ behaviour: Behaviour, on connection: TCPConnection) async -> Bool {
        do {
            switch behaviour {
            case .silent:
                while try await connection.receive() != nil {}
                return true
            case .trickle:
                for byte in Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\n".utf8).cycled() {
                    try await connection.send([byte])
                    // Real time on purpose: the subject is the client's real-time bound on a
                    // peer that sends a byte a second over a real socket.
                    try await Task.sleep(for: .seconds(1))
                }
                return true
            case .endlessHeaders:
                try await connection.send(Array("HTTP/1.1 200 OK\r\n".utf8))
                var index = 0
                while true {
                    try await connection.send(
                        Array("X-Filler-\(index): \(String(repeating: "a", count: 100))\r\n".utf8)
                    )
                    index += 1
                }
            }
        } catch is CancellationError {
            return false
        } catch {
            return true
        }
    }

    /// Waits (with a hang guard) until `counter` reaches `count`.
    func await(_ counter: KeyPath<HostileMediaServer, WatchedCount>, reaches count: Int) async throws {
        try await self[keyPath: counter].wait(until: "the media server to see \(count)", within: .seconds(60)) {
            $0 >= count
        }
    }

    func close() {
        listener.close()
        task.cancel()
    }
}

extension Array where Element == UInt8 {
    fileprivate var endsWithBlankLine: Bool {
        count >= 4 && Array(self[(count - 4)...]) == Array("\r\n\r\n".utf8)
    }

    /// The bytes again and again, without end.
    fileprivate func cycled() -> UnfoldSequence<UInt8, Int> {
        sequence(state: 0) { index in
            defer { index = (index + 1) % count }
            return self[index]
        }
    }
}

/// A slow or hostile media server never stalls a device's Cast channel nor the other devices
/// of the process; a read a newer LOAD made useless is cancelled and its connection closed.
@Suite struct HostileMediaServerTests {
    static func device(
        deadline: Duration = .seconds(600),
        requestTimeout: Duration = .seconds(600),
        fetchLimit: Int = 4,
        log: RecordingLog? = nil
    ) async throws -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(identity: ServerTestDevices.identity, randomSeed: 7)
        configuration.mediaMode = .fetch
        // The test sender answers no PING, and these tests wait on slow servers: the liveness
        // timeout must not close the channel first.
        configuration.livenessTimeout = TestTiming.patience
        var options = DeviceServerOptions.forTests()
        options.mediaProbeDeadline = deadline
        options.mediaRequestTimeout = requestTimeout
        options.mediaFetchLimit = fetchLimit
        let device = VirtualDevice(
            configuration: configuration,
            options: options,
            log: log,
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        return device
    }

    /// Connects to `device`, launches the Default Media Receiver and returns its transport.
    static func launch(_ sender: TestSender) async throws -> String {
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await sender.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#)
        while let json = try await next(sender, namespace: .receiver) {
            let app = json["status"]?["applications"]?[0]
            if app?["appId"] == "CC1AD845", let transport = app?["transportId"]?.stringValue {
                try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: transport)
                return transport
            }
        }
        throw TCPError.closed
    }

    static func load(_ url: String, requestID: Int, on sender: TestSender, transport: String) async throws {
        try await sender.send(
            namespace: .media,
            #"{"type":"LOAD","requestId":\#(requestID),"media":{"contentId":"\#(url)","contentType":"video/mp4"}}"#,
            destination: transport
        )
    }

    /// The next message on `namespace` (hang guard: ``TestTiming/patience``).
    static func next(_ sender: TestSender, namespace: CastNamespace) async throws -> JSONValue? {
        while let message = try await sender.receive(timeout: TestTiming.patience) {
            guard message.namespace == namespace,
                let json = message.payloadUTF8.flatMap({ try? JSONValue(parsing: $0) })
            else { continue }
            return json
        }
        return nil
    }

    /// The first message on `namespace` whose `requestId` is `requestId`.
    static func reply(_ requestID: Int, from sender: TestSender, namespace: CastNamespace) async throws -> JSONValue {
        while let json = try await next(sender, namespace: namespace) {
            if json["requestId"] == .integer(requestID) { return json }
        }
        throw TCPError.closed
    }

    @Test(arguments: [HostileMediaServer.Behaviour.silent, .trickle])
    func aStalledMediaReadLeavesTheCastChannelAndOtherDevicesAnswering(
        _ behaviour: HostileMediaServer.Behaviour
    ) async throws {
        let server = try HostileMediaServer(behaviour)
        defer { server.close() }
        let device = try await Self.device()
        let other = try await Self.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        try await Self.load(server.url, requestID: 9, on: sender, transport: transport)
        try await server.await(\.requests, reaches: 1)

        try await sender.send(namespace: .media, #"{"type":"GET_STATUS","requestId":10}"#, destination: transport)
        let media = try await Self.reply(10, from: sender, namespace: .media)
        #expect(media["type"] == "MEDIA_STATUS")
        #expect(media["status"]?[0]?["extendedStatus"]?["playerState"] == "LOADING")
        try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":11}"#)
        let receiver = try await Self.reply(11, from: sender, namespace: .receiver)
        #expect(receiver["type"] == "RECEIVER_STATUS")

        let otherSender = try await TestSender(port: try #require(other.ports).cast)
        defer { otherSender.close() }
        try await otherSender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await otherSender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":3}"#)
        let otherStatus = try await Self.reply(3, from: otherSender, namespace: .receiver)
        #expect(otherStatus["type"] == "RECEIVER_STATUS")

        await other.stop()
        await device.stop()
        // Stopping the device cancels its read: the server sees the connection closed.
        try await server.await(\.closedByClient, reaches: 1)
    }

    /// Header fields without end cross the client's 64 KiB head limit: the LOAD fails with
    /// MEDIA_NETWORK at once instead of reading for ever.
    @Test func endlessHeadersFailTheLoad() async throws {
        let server = try HostileMediaServer(.endlessHeaders)
        defer { server.close() }
        let device = try await Self.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        try await Self.load(server.url, requestID: 9, on: sender, transport: transport)
        let failed = try await Self.reply(9, from: sender, namespace: .media)
        #expect(failed["type"] == "LOAD_FAILED")
        #expect(failed["detailedErrorCode"] == 103)
        try await server.await(\.closedByClient, reaches: 1)
        await device.stop()
    }

    /// A newer LOAD supersedes the read of the older one: the device closes its connection
    /// (the per-request timeout and the deadline are ten minutes, so only cancelling can).
    @Test func aNewerLoadCancelsTheSupersededRead() async throws {
        let server = try HostileMediaServer(.silent)
        defer { server.close() }
        let device = try await Self.device()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        try await Self.load(server.url, requestID: 9, on: sender, transport: transport)
        try await server.await(\.requests, reaches: 1)
        try await Self.load(server.url, requestID: 12, on: sender, transport: transport)
        try await server.await(\.requests, reaches: 2)
        try await server.await(\.closedByClient, reaches: 1)
        #expect(server.closedByClient.value == 1)
        await device.stop()
        try await server.await(\.closedByClient, reaches: 2)
    }

    /// A server that trickles its answer within every per-request limit still cannot hold the
    /// LOAD past the probe's overall deadline: LOAD_FAILED MEDIA_NETWORK, connection closed.
    @Test func theProbeDeadlineFailsATricklingRead() async throws {
        let server = try HostileMediaServer(.trickle)
        defer { server.close() }
        let device = try await Self.device(deadline: .seconds(2))
        let sender = try await TestSender(port: try #require(device.ports).cast)
        defer { sender.close() }
        let transport = try await Self.launch(sender)
        try await Self.load(server.url, requestID: 9, on: sender, transport: transport)
        let failed = try await Self.reply(9, from: sender, namespace: .media)
        #expect(failed["type"] == "LOAD_FAILED")
        #expect(failed["detailedErrorCode"] == 103)
        try await server.await(\.closedByClient, reaches: 1)
        await device.stop()
    }

    /// Three active text tracks on a server that never answers, with room for two reads: two
    /// requests arrive and the third read waits; a STOP cancels both running reads (their
    /// connections close) and drops the waiting one, which never reaches the server.
    @Test func readsBeyondTheLimitWaitAndSupersededOnesNeverStart() async throws {
        let server = try HostileMediaServer(.silent)
        defer { server.close() }
        try await MediaFetcherTests.withServer { base in
            let log = RecordingLog()
            let device = try await Self.device(fetchLimit: 2, log: log)
            let sender = try await TestSender(port: try #require(device.ports).cast)
            defer { sender.close() }
            let transport = try await Self.launch(sender)
            let tracks = (1...3).map { id in
                #"{"trackId":\#(id),"type":"TEXT","subtype":"SUBTITLES","trackContentId":"\#(server.url)?\#(id)","trackContentType":"text/vtt"}"#
            }
            let load =
                #"{"type":"LOAD","requestId":9,"activeTrackIds":[1,2,3],"media":{"contentId":"\#(base)/start.mp4","#
                + #""contentType":"video/mp4","tracks":[\#(tracks.joined(separator: ","))]}}"#
            try await sender.send(namespace: .media, load, destination: transport)
            let reply = try await Self.reply(9, from: sender, namespace: .media)
            #expect(reply["status"]?[0]?["playerState"] == "PLAYING")
            try await server.await(\.requests, reaches: 2)
            let waiting = await log.waitFor(timeout: TestTiming.patience) {
                $0.payload == "1 media reads waiting for one of 2 places"
            }
            #expect(waiting != nil)
            try await sender.send(
                namespace: .media,
                #"{"type":"STOP","requestId":10,"mediaSessionId":1}"#,
                destination: transport
            )
            _ = try await Self.reply(10, from: sender, namespace: .media)
            try await server.await(\.closedByClient, reaches: 2)
            await device.stop()
            #expect(server.requests.value == 2)
        }
    }
}
