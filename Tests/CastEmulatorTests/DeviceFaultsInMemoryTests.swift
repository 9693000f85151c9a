import CastCore
import CastNetEmbedded
import CastTestSupport
import CastTime
import Testing

@testable import CastEmulator

/// Faults switched on through the device's library API and seen by a sender in memory, with
/// the real engine behind (``MemorySender``): no socket and no real time, so a delay is a
/// move of the clock and a missing reply is checked after everything queued has run.
/// The control endpoint that switches them over HTTP stays with the socket tests
/// (`ServerFaultInjectionTests`).
@Suite struct DeviceFaultsInMemoryTests {
    static func device(_ loop: EmbeddedLoop) -> VirtualDevice {
        MemorySender.device(on: loop) { $0.bufferingDelay = .zero }
    }

    /// Sends a request and returns the reply carrying its request id, skipping the rest.
    static func request(
        _ sender: MemorySender,
        namespace: CastNamespace,
        destination: String = "receiver-0",
        _ json: String,
        requestID: Int
    ) async throws -> JSONValue {
        try sender.send(namespace: namespace, json, destination: destination)
        while true {
            let message = try #require(try await sender.receive(), "closed while waiting for request \(requestID)")
            guard let payload = try? JSONValue(parsing: message.payloadUTF8 ?? "") else { continue }
            if payload["requestId"]?.intValue == requestID { return payload }
        }
    }

    /// CONNECT, LAUNCH of the Default Media Receiver, CONNECT to its transport.
    static func launch(_ sender: MemorySender) async throws -> (sessionID: String, transportID: String) {
        try sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        let status = try await request(
            sender,
            namespace: .receiver,
            #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#,
            requestID: 1
        )
        let app = try #require(status["status"]?["applications"]?[0])
        let transportID = try #require(app["transportId"]?.stringValue)
        try sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: transportID)
        return (try #require(app["sessionId"]?.stringValue), transportID)
    }

    static let load =
        #"{"type":"LOAD","requestId":5,"media":{"contentId":"http://127.0.0.1:9/a.mp4","streamType":"BUFFERED","contentType":"video/mp4"}}"#

    @Test func failNextLoadFailsOnceThenLoads() async throws {
        let loop = EmbeddedLoop()
        let device = Self.device(loop)
        let sender = MemorySender(to: device, loop: loop)
        let (_, transport) = try await Self.launch(sender)
        device.faults.failsNextLoad = true
        let failed = try await Self.request(sender, namespace: .media, destination: transport, Self.load, requestID: 5)
        #expect(failed["type"] == "LOAD_FAILED")
        #expect(!device.faults.failsNextLoad, "the switch resets after one LOAD")
        let loaded = try await Self.request(sender, namespace: .media, destination: transport, Self.load, requestID: 5)
        #expect(loaded["type"] == "MEDIA_STATUS")
    }

    @Test func ignoredPingsGetNoPong() async throws {
        let loop = EmbeddedLoop()
        let device = Self.device(loop)
        device.faults.ignoresPings = true
        let sender = MemorySender(to: device, loop: loop)
        try sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try sender.send(namespace: .heartbeat, #"{"type":"PING"}"#)
        // Everything the PING caused has run: nothing came back.
        #expect(sender.pending().isEmpty, "no PONG while pings are ignored")
        device.faults.ignoresPings = false
        try sender.send(namespace: .heartbeat, #"{"type":"PING"}"#)
        let reply = try #require(try await sender.receive())
        #expect(reply.namespace == .heartbeat && reply.payloadUTF8?.contains("PONG") == true)
    }

    @Test func restartAppGivesNewSessionIDs() async throws {
        let loop = EmbeddedLoop()
        let device = Self.device(loop)
        let sender = MemorySender(to: device, loop: loop)
        let (session, transport) = try await Self.launch(sender)
        var restart = FaultControlRequest()
        restart.restartApp = true
        device.apply(restart)
        let status = try await Self.request(
            sender,
            namespace: .receiver,
            #"{"type":"GET_STATUS","requestId":9}"#,
            requestID: 9
        )
        let app = try #require(status["status"]?["applications"]?[0])
        #expect(app["appId"] == "CC1AD845")
        #expect(app["sessionId"]?.stringValue != session)
        #expect(app["transportId"]?.stringValue != transport)
    }

    @Test func replyDelayHoldsEngineRepliesUntilTheClockMoves() async throws {
        let loop = EmbeddedLoop()
        let device = Self.device(loop)
        device.replyDelay = .milliseconds(300)
        let sender = MemorySender(to: device, loop: loop)
        try sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":4}"#)
        #expect(sender.pending().isEmpty, "nothing before the delay")
        sender.advance(by: .milliseconds(299))
        #expect(sender.pending().isEmpty, "nothing a millisecond before it")
        sender.advance(by: .milliseconds(1))
        let replies = sender.pending().compactMap { try? JSONValue(parsing: $0.payloadUTF8 ?? "") }
        #expect(replies.contains { $0["type"] == "RECEIVER_STATUS" && $0["requestId"]?.intValue == 4 })
    }
}
