import CastCore
import CastCrypto
import CastNet
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// The I/O owner over real TLS on 127.0.0.1, hosting the scripted engine: what needs the
/// listener, the socket or the certificate. The hosting itself (reply delays, deadlines, drops,
/// crashes, reboots) is tested in memory (`VirtualDeviceInMemoryTests`).
@Suite struct ServerVirtualDeviceTests {
    static let ping = #"{"type":"PING"}"#

    @Test func answersOverTLSAndLogsBothDirections() async throws {
        let log = RecordingLog()
        let device = try await ServerTestDevices.started(log: log)
        let ports = try #require(device.ports)
        let sender = try await TestSender(port: ports.cast)
        try await sender.send(namespace: .heartbeat, Self.ping)
        let reply = try #require(try await sender.receive())
        #expect(reply.payloadUTF8 == #"{"type":"PONG"}"#)
        #expect(reply.sourceID == "receiver-0" && reply.destinationID == "sender-0")
        #expect(device.connectionCount == 1)
        let outbound = await log.waitFor { $0.direction == .outbound }
        #expect(outbound?.payload == #"{"type":"PONG"}"#)
        #expect(outbound?.namespace == CastNamespace.heartbeat.rawValue)
        #expect(outbound?.device == "Test Device")
        let inbound = try #require(log.all.first { $0.direction == .inbound })
        #expect(inbound.source == "sender-0" && inbound.destination == "receiver-0")
        #expect(inbound.connection == outbound?.connection)
        let line = try JSONValue(parsing: inbound.jsonLine)
        for key in ["time", "device", "connection", "direction", "namespace", "source", "destination", "payload"] {
            #expect(line[key] != nil, "log line lacks \(key)")
        }
        sender.close()
        await device.stop()
    }

    /// Frames that break the protocol close only their own connection.
    @Test(arguments: BadInput.allCases)
    func badInputClosesOnlyThatConnection(_ input: BadInput) async throws {
        let log = RecordingLog()
        let device = try await ServerTestDevices.started(log: log)
        let ports = try #require(device.ports)
        let bystander = try await TestSender(port: ports.cast)
        let offender = try await TestSender(port: ports.cast)
        try await offender.sendRaw(input.bytes)
        let rest = try await offender.readToEnd()
        #expect(rest.isEmpty, "the device answered \(rest.count) bytes instead of closing")
        let closing = await log.waitFor { $0.direction == .event && $0.payload.contains(input.logMention) }
        #expect(closing != nil, "no log line mentioning \(input.logMention): \(log.all.map(\.payload))")
        let closed = await log.waitFor { $0.direction == .event && $0.payload.hasPrefix("closed: ") }
        #expect(closed?.connection == closing?.connection)
        try await bystander.send(namespace: .heartbeat, Self.ping)
        #expect(try await bystander.receive()?.payloadUTF8 == #"{"type":"PONG"}"#)
        bystander.close()
        await device.stop()
    }

    enum BadInput: CaseIterable, Sendable, CustomTestStringConvertible {
        case garbageProtobuf, missingRequiredField, emptyNamespace, zeroLength, oversizeLength, stringTypeWithoutPayload

        var bytes: [UInt8] {
            switch self {
            case .garbageProtobuf:
                return [0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
            case .missingRequiredField:
                // protocol_version only.
                return [0, 0, 0, 2, 0x08, 0x00]
            case .emptyNamespace:
                let message = CastMessage(sourceID: "sender-0", destinationID: "receiver-0", namespace: "", text: "{}")
                return (try? CastFrameEncoder.encode(message.serializedBytes())) ?? []
            case .zeroLength:
                return [0, 0, 0, 0]
            case .oversizeLength:
                return [0, 1, 0, 1] + [UInt8](repeating: 0, count: 16)
            case .stringTypeWithoutPayload:
                let message = CastMessage(
                    sourceID: "sender-0",
                    destinationID: "receiver-0",
                    namespace: .heartbeat,
                    payloadType: .string
                )
                return (try? CastFrameEncoder.encode(message.serializedBytes())) ?? []
            }
        }

        var logMention: String {
            switch self {
            case .garbageProtobuf, .missingRequiredField: "malformed CastMessage"
            case .emptyNamespace: "empty namespace"
            case .zeroLength: "empty body"
            case .oversizeLength: "over the limit"
            case .stringTypeWithoutPayload: "without payload_utf8"
            }
        }

        var testDescription: String { "\(self)" }
    }

    @Test func floodIsBoundedAndOtherSendersKeepWorking() async throws {
        let log = RecordingLog()
        let device = try await ServerTestDevices.started(log: log, sendQueueLimit: 16 * 1024)
        let ports = try #require(device.ports)
        let bystander = try await TestSender(port: ports.cast)
        let flooder = try await TestSender(port: ports.cast)
        // 60 KB echo messages that the flooder never reads: the device's queue must overflow.
        let big = String(repeating: "x", count: 60_000)
        let message = CastMessage(
            sourceID: "sender-0",
            destinationID: "receiver-0",
            namespace: ScriptedEngine.echo,
            text: #"{"type":"FLOOD","data":"\#(big)"}"#
        )
        let frame = try CastFrameEncoder.encode(message.serializedBytes())
        // At most 48 MB, though the device cuts the flooder off after a few.
        let flood = Task {
            for _ in 0..<800 where !Task.isCancelled {
                do { try await flooder.sendRaw(frame) } catch { return }
            }
        }
        let full = await log.waitFor(timeout: .seconds(60)) { $0.payload.hasPrefix("send queue full") }
        #expect(full != nil, "the flooding connection was never cut off")
        flood.cancel()
        _ = await flood.value
        try await bystander.send(namespace: .heartbeat, Self.ping)
        #expect(try await bystander.receive()?.payloadUTF8 == #"{"type":"PONG"}"#)
        flooder.close()
        bystander.close()
        await device.stop()
    }

    @Test func advertiserSeesStartStatusAndStop() async throws {
        let advertiser = RecordingAdvertiser()
        let device = try await ServerTestDevices.started(advertiser: advertiser)
        let ports = try #require(device.ports)
        let sender = try await TestSender(port: ports.cast)
        try await sender.send(namespace: ScriptedEngine.echo, #"{"type":"LAUNCH_APP"}"#)
        try await sender.send(namespace: .heartbeat, Self.ping)
        _ = try await sender.receive()
        await device.stop()
        let calls = advertiser.all
        guard calls.count == 3, case .start(let started) = calls[0], case .update(let updated) = calls[1],
            case .stop(let stopped) = calls[2]
        else {
            Issue.record("unexpected advertiser calls: \(calls)")
            return
        }
        #expect(started.port == ports.cast)
        #expect(started["id"] == "0123456789abcdef0123456789abcdef")
        #expect(started["fn"] == "Test Device" && started["md"] == "Test Model" && started["ca"] == "5")
        #expect(started["st"] == "0" && updated["st"] == "1" && updated["rs"] == "Ready To Cast")
        #expect(stopped["st"] == "1")
    }

    @Test func certificateIsSelfSignedAndShortLived() async throws {
        let device = try await ServerTestDevices.started()
        let certificate = try #require(device.certificate)
        #expect(certificate.subjectCommonName == "0123456789abcdef0123456789abcdef")
        #expect(certificate.issuer == certificate.subject)
        let lifetime = certificate.notAfter.timeIntervalSince(certificate.notBefore)
        #expect(lifetime > 86_400 && lifetime <= 4 * 86_400)
        #expect(certificate.notBefore <= Date())
        await device.stop()
    }

    @Test func twoDevicesCannotShareAnAddressAndPort() async throws {
        let device = try await ServerTestDevices.started()
        let ports = try #require(device.ports)
        var options = DeviceServerOptions.ephemeral()
        options.castPort = ports.cast
        let clash = VirtualDevice(
            configuration: VirtualDeviceConfiguration(identity: ServerTestDevices.identity),
            options: options,
            certificateKey: ServerTestDevices.sharedKey
        )
        await #expect(throws: TCPError.self) { try await clash.start() }
        await device.stop()
    }
}
