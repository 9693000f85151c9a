import CastCore
import CastNet
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// Faults switched on through the device (library API and control endpoint) and seen by a
/// sender over real TLS, with the real engine behind.
@Suite struct ServerFaultInjectionTests {
    static func startDevice() async throws -> VirtualDevice {
        let identity = DeviceIdentity(friendlyName: "Faulty", deviceID: "ffeeddccbbaa99887766554433221100")
        var configuration = VirtualDeviceConfiguration(identity: identity)
        configuration.bufferingDelay = .zero
        // The test sender answers no PING: a slow run must not outlast the liveness timeout.
        configuration.livenessTimeout = TestTiming.patience
        let device = VirtualDevice(
            configuration: configuration,
            options: .forTests(),
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        return device
    }

    /// Sends a request and returns the reply carrying its request id, skipping the rest.
    static func request(
        _ sender: TestSender,
        namespace: CastNamespace,
        destination: String = "receiver-0",
        _ json: String,
        requestID: Int
    ) async throws -> JSONValue {
        try await sender.send(namespace: namespace, json, destination: destination)
        while true {
            let message = try #require(try await sender.receive(), "closed while waiting for request \(requestID)")
            guard let payload = try? JSONValue(parsing: message.payloadUTF8 ?? "") else { continue }
            if payload["requestId"]?.intValue == requestID { return payload }
        }
    }

    /// CONNECT, LAUNCH of the Default Media Receiver, CONNECT to its transport.
    static func launch(
        _ sender: TestSender,
        requestID: Int = 1
    ) async throws -> (sessionID: String, transportID: String) {
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        let status = try await request(
            sender,
            namespace: .receiver,
            #"{"type":"LAUNCH","appId":"CC1AD845","requestId":\#(requestID)}"#,
            requestID: requestID
        )
        let app = try #require(status["status"]?["applications"]?[0])
        let transportID = try #require(app["transportId"]?.stringValue)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: transportID)
        return (try #require(app["sessionId"]?.stringValue), transportID)
    }

    static let load =
        #"{"type":"LOAD","requestId":5,"media":{"contentId":"http://127.0.0.1:9/a.mp4","streamType":"BUFFERED","contentType":"video/mp4"}}"#

    @Test func failNextLoadFailsOnceThenLoads() async throws {
        let device = try await Self.startDevice()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        let (_, transport) = try await Self.launch(sender)
        device.faults.failsNextLoad = true
        let failed = try await Self.request(sender, namespace: .media, destination: transport, Self.load, requestID: 5)
        #expect(failed["type"] == "LOAD_FAILED")
        #expect(!device.faults.failsNextLoad, "the switch resets after one LOAD")
        let loaded = try await Self.request(sender, namespace: .media, destination: transport, Self.load, requestID: 5)
        #expect(loaded["type"] == "MEDIA_STATUS")
        sender.close()
        await device.stop()
    }

    @Test func refuseLaunchThroughTheControlEndpoint() async throws {
        let device = try await Self.startDevice()
        let ports = try #require(device.ports)
        let body = Array(#"{"refuseLaunch": "CANCELLED"}"#.utf8)
        let response = try await httpExchange(
            port: ports.http,
            request: "POST /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: \(body.count)\r\n\r\n",
            body: body
        )
        #expect(response.status == 200)
        let sender = try await TestSender(port: ports.cast)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        let refused = try await Self.request(
            sender,
            namespace: .receiver,
            #"{"type":"LAUNCH","appId":"CC1AD845","requestId":3}"#,
            requestID: 3
        )
        #expect(refused["type"] == "LAUNCH_ERROR" && refused["reason"] == "CANCELLED")
        sender.close()
        await device.stop()
    }

    @Test func ignoredPingsGetNoPong() async throws {
        let device = try await Self.startDevice()
        device.faults.ignoresPings = true
        let sender = try await TestSender(port: try #require(device.ports).cast)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await sender.send(namespace: .heartbeat, #"{"type":"PING"}"#)
        // A request sent after the PING is answered; no PONG came before it.
        try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":8}"#)
        var sawPong = false
        while true {
            let message = try #require(try await sender.receive())
            if message.payloadUTF8?.contains("PONG") == true { sawPong = true }
            if message.namespace == .receiver { break }
        }
        #expect(!sawPong)
        device.faults.ignoresPings = false
        try await sender.send(namespace: .heartbeat, #"{"type":"PING"}"#)
        var reply = try #require(try await sender.receive())
        while reply.namespace != .heartbeat || reply.payloadUTF8?.contains("PING") == true {
            reply = try #require(try await sender.receive())
        }
        #expect(reply.payloadUTF8?.contains("PONG") == true)
        sender.close()
        await device.stop()
    }

    @Test func restartAppGivesNewSessionIDs() async throws {
        let device = try await Self.startDevice()
        let sender = try await TestSender(port: try #require(device.ports).cast)
        let (session, transport) = try await Self.launch(sender)
        device.apply(
            {
                var request = FaultControlRequest()
                request.restartApp = true
                return request
            }()
        )
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
        sender.close()
        await device.stop()
    }

    @Test func replyDelayHoldsEngineReplies() async throws {
        let device = try await Self.startDevice()
        device.replyDelay = .milliseconds(300)
        let sender = try await TestSender(port: try #require(device.ports).cast)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        let start = ContinuousClock.now
        let status = try await Self.request(
            sender,
            namespace: .receiver,
            #"{"type":"GET_STATUS","requestId":4}"#,
            requestID: 4
        )
        #expect(status["type"] == "RECEIVER_STATUS")
        // A lower bound only: the reply cannot arrive before its delay.
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        sender.close()
        await device.stop()
    }
}
