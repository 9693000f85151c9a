import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// A hostile sender against the virtual device over real TLS on loopback: the LOADs, break
/// clips and queue jumps that used to trap, and seeded random sequences of media commands with
/// extreme numbers. The device answers each one (refusals as a receiver refuses), keeps serving
/// its senders, and the other device in the same process keeps running.
@Suite struct HostileSenderTests {
    /// Two devices in this process, each on an ephemeral port of its own loopback address.
    struct Pair {
        let target: VirtualDevice
        let bystander: VirtualDevice

        static func start() async throws -> Pair {
            func device(_ name: String, _ address: String) async throws -> VirtualDevice {
                var configuration = VirtualDeviceConfiguration(
                    identity: DeviceIdentity(
                        friendlyName: name,
                        deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                    ),
                    randomSeed: 17
                )
                configuration.bufferingDelay = .zero
                // The test senders answer no PING: a loaded run must not outlast the liveness
                // timeout while a test waits.
                configuration.livenessTimeout = TestTiming.patience
                let device = VirtualDevice(
                    configuration: configuration,
                    options: .forTests(address: address),
                    certificateKey: ServerTestDevices.sharedKey
                )
                try await device.start()
                return device
            }
            return Pair(
                target: try await device("Target TV", "127.0.0.1"),
                bystander: try await device("Bystander TV", "127.0.0.1")
            )
        }

        func stop() async {
            await target.stop()
            await bystander.stop()
        }
    }

    /// A sender session over TLS: the platform connection and the media app's transport.
    struct Sender {
        let connection: TestSender
        var transportID = ""

        static func connect(to device: VirtualDevice, launch: Bool = true) async throws -> Sender {
            var sender = Sender(connection: try await TestSender(port: try #require(device.ports).cast))
            try await sender.connection.send(namespace: .connection, #"{"type":"CONNECT","origin":{}}"#)
            guard launch else { return sender }
            let status = try await sender.request(
                namespace: .receiver,
                #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#,
                id: 1
            )
            sender.transportID = try #require(status["status"]?["applications"]?[0]?["transportId"]?.stringValue)
            try await sender.connection.send(
                namespace: .connection,
                #"{"type":"CONNECT"}"#,
                destination: sender.transportID
            )
            return sender
        }

        /// Sends `text` and returns the first reply carrying `id`, answering PINGs meanwhile.
        func request(
            namespace: CastNamespace,
            _ text: String,
            id: Int,
            destination: String? = nil
        ) async throws -> JSONValue {
            try await connection.send(namespace: namespace, text, destination: destination ?? "receiver-0")
            return try await reply(id: id)
        }

        func media(_ text: String, id: Int) async throws -> JSONValue {
            try await request(namespace: .media, text, id: id, destination: transportID)
        }

        func reply(id: Int) async throws -> JSONValue {
            while let message = try await connection.receive(timeout: TestTiming.scaled(.seconds(20))) {
                guard let text = message.payloadUTF8, let payload = try? JSONValue(parsing: text) else { continue }
                if message.namespace == .heartbeat, payload["type"] == "PING" {
                    try await connection.send(namespace: .heartbeat, #"{"type":"PONG"}"#, destination: message.sourceID)
                    continue
                }
                if payload["requestId"]?.intValue == id { return payload }
            }
            throw TestFailure("the device closed the connection before answering request \(id)")
        }

        /// The device still answers on the receiver namespace and in the media app.
        func expectAnswering(id: Int) async throws {
            let receiver = try await request(
                namespace: .receiver,
                #"{"type":"GET_STATUS","requestId":\#(id)}"#,
                id: id
            )
            #expect(receiver["type"] == "RECEIVER_STATUS")
            let media = try await self.media(#"{"type":"GET_STATUS","requestId":\#(id + 1)}"#, id: id + 1)
            #expect(media["type"] == "MEDIA_STATUS")
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The bystander device still serves a new sender.
    static func expectSurvives(_ device: VirtualDevice) async throws {
        let sender = try await Sender.connect(to: device)
        try await sender.expectAnswering(id: 900)
        sender.connection.close()
    }

    static func load(duration: String, extra: String = "", id: Int) -> String {
        #"{"type":"LOAD","requestId":\#(id),"media":{"contentId":"http://m/1.mp4","streamType":"BUFFERED","duration":\#(duration)\#(extra)}}"#
    }

    @Test(arguments: ["1e300", "1e19", "-1e300"])
    func aLoadWithAnEndlessDurationIsRefusedOverTLS(duration: String) async throws {
        let pair = try await Pair.start()
        let sender = try await Sender.connect(to: pair.target)
        let answer = try await sender.media(Self.load(duration: duration, id: 10), id: 10)
        #expect(answer["type"] == "INVALID_REQUEST" && answer["reason"] == "INVALID_PARAMS")
        try await sender.expectAnswering(id: 20)
        try await Self.expectSurvives(pair.bystander)
        sender.connection.close()
        await pair.stop()
    }

    @Test func aBreakClipOfEndlessDurationIsRefusedOverTLS() async throws {
        let pair = try await Pair.start()
        let sender = try await Sender.connect(to: pair.target)
        let breaks =
            #","breaks":[{"id":"b","position":0,"breakClipIds":["c"]}],"breakClips":[{"id":"c","duration":1e300}]"#
        let answer = try await sender.media(Self.load(duration: "30", extra: breaks, id: 10), id: 10)
        #expect(answer["type"] == "INVALID_REQUEST" && answer["reason"] == "INVALID_PARAMS")
        try await sender.expectAnswering(id: 20)
        try await Self.expectSurvives(pair.bystander)
        sender.connection.close()
        await pair.stop()
    }

    @Test func aQueueJumpOfIntMaxIsRefusedOverTLS() async throws {
        let pair = try await Pair.start()
        let sender = try await Sender.connect(to: pair.target)
        let items = (1...3).map { #"{"media":{"contentId":"http://m/\#($0).mp4","streamType":"BUFFERED"}}"# }
        let loaded = try await sender.media(
            #"{"type":"QUEUE_LOAD","requestId":10,"startIndex":1,"items":[\#(items.joined(separator: ","))]}"#,
            id: 10
        )
        let sessionID = try #require(loaded["status"]?[0]?["mediaSessionId"]?.intValue)
        let answer = try await sender.media(
            #"{"type":"QUEUE_UPDATE","requestId":11,"mediaSessionId":\#(sessionID),"jump":9223372036854775807}"#,
            id: 11
        )
        #expect(answer["type"] == "INVALID_REQUEST" && answer["reason"] == "INVALID_PARAMS", "\(answer)")
        try await sender.expectAnswering(id: 20)
        try await Self.expectSurvives(pair.bystander)
        sender.connection.close()
        await pair.stop()
    }

    /// 300 seeded random media commands with extreme numbers (the generator of
    /// ``HostileNumberTests``), each answered before the next is sent.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aSeededRandomSequenceOf300CommandsOverTLS(seed: UInt64) async throws {
        let pair = try await Pair.start()
        let sender = try await Sender.connect(to: pair.target)
        var generator = HostileNumberTests.SplitMix(state: seed)
        var sessionID = 1
        for index in 0..<300 {
            var command = try JSONValue(
                parsing: HostileNumberTests.randomCommand(session: sessionID, using: &generator)
            )
            let id = 1000 + index
            command["requestId"] = .integer(id)
            let answer = try await sender.media(try JSONPayloadEncoder().encode(command), id: id)
            #expect(answer["type"]?.stringValue != nil, "command \(index) got no typed answer")
            if let current = answer["status"]?[0]?["mediaSessionId"]?.intValue { sessionID = current }
        }
        try await sender.expectAnswering(id: 5000)
        try await Self.expectSurvives(pair.bystander)
        sender.connection.close()
        await pair.stop()
    }
}
