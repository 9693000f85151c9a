import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// Bad messages over real TLS to a device running the real engine: the offender gets the
/// protocol's error reply or its message is dropped and logged, and both the offender and a
/// second sender keep being served.
@Suite struct ServerBadInputTests {
    enum Expected: Sendable {
        /// A reply of this type echoing this request id, on the receiver namespace.
        case reply(type: String, requestID: Int)
        /// No reply; a log event mentioning this text.
        case logged(String)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var connectFirst: Bool
        var message: CastMessage
        var expected: Expected
        var testDescription: String { name }
    }

    static let receiver = CastNamespace.receiver

    static let cases: [Case] = [
        Case(
            name: "message before CONNECT",
            connectFirst: false,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: receiver,
                text: #"{"type":"GET_STATUS","requestId":5}"#
            ),
            expected: .logged("no virtual connection")
        ),
        Case(
            name: "invalid JSON",
            connectFirst: true,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: receiver,
                text: #"{"type":"GET_STATUS","requestId":"#
            ),
            expected: .logged("malformed receiver request")
        ),
        Case(
            name: "unknown request type",
            connectFirst: true,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: receiver,
                text: #"{"type":"FROBNICATE","requestId":9}"#
            ),
            expected: .reply(type: "INVALID_REQUEST", requestID: 9)
        ),
        Case(
            name: "wrongly typed field",
            connectFirst: true,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: receiver,
                text: #"{"type":"SET_VOLUME","requestId":11,"volume":"loud"}"#
            ),
            expected: .reply(type: "INVALID_REQUEST", requestID: 11)
        ),
        Case(
            name: "unknown namespace",
            connectFirst: true,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: "urn:x-cast:com.example.nobody",
                text: #"{"type":"HELLO","requestId":3}"#
            ),
            expected: .logged("namespace not handled")
        ),
        Case(
            name: "binary payload on a JSON namespace",
            connectFirst: true,
            message: CastMessage(
                sourceID: "sender-0",
                destinationID: "receiver-0",
                namespace: receiver,
                binary: [0xDE, 0xAD, 0xBE, 0xEF]
            ),
            expected: .logged("payload is not text")
        ),
    ]

    @Test(arguments: cases)
    func deviceAnswersOrDropsAndKeepsServing(_ input: Case) async throws {
        let log = RecordingLog()
        let identity = DeviceIdentity(friendlyName: "Bad Input", deviceID: "00112233445566778899aabbccddeeff")
        var configuration = VirtualDeviceConfiguration(identity: identity)
        // The test senders answer no PING: a slow run must not outlast the liveness timeout.
        configuration.livenessTimeout = TestTiming.patience
        let device = VirtualDevice(
            configuration: configuration,
            options: .forTests(),
            log: log,
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        let port = try #require(device.ports).cast
        let bystander = try await TestSender(port: port)
        let offender = try await TestSender(port: port)
        if input.connectFirst {
            try await offender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        }
        try await offender.send(input.message)
        switch input.expected {
        case .reply(let type, let requestID):
            // Skip the device's own heartbeat PINGs to a quiet sender.
            var reply = try #require(try await offender.receive())
            while reply.namespace == .heartbeat { reply = try #require(try await offender.receive()) }
            let payload = try JSONValue(parsing: reply.payloadUTF8 ?? "")
            #expect(reply.namespace == Self.receiver)
            #expect(payload["type"]?.stringValue == type && payload["requestId"]?.intValue == requestID)
        case .logged(let mention):
            let warning = await log.waitFor {
                $0.direction == .event && $0.payload.hasPrefix("[warning]") && $0.payload.contains(mention)
            }
            #expect(warning != nil, "no warning logged: \(log.all.map(\.payload))")
        }
        // The offender is still served, and so is the bystander.
        for sender in [offender, bystander] {
            try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            try await sender.send(namespace: Self.receiver, #"{"type":"GET_STATUS","requestId":77}"#)
            var reply = try #require(try await sender.receive())
            while reply.namespace != Self.receiver { reply = try #require(try await sender.receive()) }
            let payload = try JSONValue(parsing: reply.payloadUTF8 ?? "")
            #expect(payload["type"] == "RECEIVER_STATUS" && payload["requestId"] == 77)
        }
        offender.close()
        bystander.close()
        await device.stop()
    }
}
