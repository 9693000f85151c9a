import CastCore
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// The multizone namespace of an ungrouped speaker, held to the real `MULTIZONE_STATUS`
/// captures of `shared/testdata/real-devices`.
@Suite(.requires(.realDevicePayloads)) struct VirtualDeviceEngineMultizoneTests {
    static func speaker() -> DeviceHarness {
        var device = DeviceProfileTests.harness(.speaker)
        device.open()
        device.connectPlatform()
        return device
    }

    static func multizone(_ device: inout DeviceHarness, _ json: String) -> [DeviceAction] {
        device.send(json, namespace: .multizone)
    }

    @Test func ungroupedSpeakerListsItselfWithTheKeysOfRealSpeakers() throws {
        var device = Self.speaker()
        let actions = Self.multizone(&device, #"{"type":"GET_STATUS","requestId":7}"#)
        let reply = try #require(actions.payloads(namespace: .multizone, type: "MULTIZONE_STATUS").first)
        #expect(reply["requestId"] == 7)
        let devices = try #require(reply["status"]?["devices"]?.arrayValue)
        #expect(devices.count == 1)
        let identity = device.engine.configuration.identity
        #expect(devices[0]["deviceId"]?.stringValue == identity.udn)
        #expect(devices[0]["name"]?.stringValue == identity.friendlyName)
        #expect(devices[0]["capabilities"]?.intValue == identity.capabilities.rawValue)
        #expect(reply["status"]?["isMultichannel"] == false)

        let captures = try RealDevicePayloads.records(kind: "MULTIZONE_STATUS").map {
            try JSONValue(parsing: $0.payload)
        }
        #expect(!captures.isEmpty)
        let ours = DeviceProfileTests.members(reply)
        for capture in captures {
            for (path, type) in DeviceProfileTests.members(capture) {
                #expect(ours[path] == type, "member \(path) (\(type)) of a real MULTIZONE_STATUS")
            }
        }
        let decoded = try MultizoneMessage(jsonString: try #require(actions.sent.first?.message.payloadUTF8))
        guard case .multizoneStatus(let status) = decoded else {
            Issue.record("not decoded as MULTIZONE_STATUS")
            return
        }
        #expect(status.status.devices.first?.volume?.level == 1)
    }

    @Test func ungroupedSpeakerBelongsToNoCastingGroup() throws {
        var device = Self.speaker()
        let actions = Self.multizone(&device, #"{"type":"GET_CASTING_GROUPS","requestId":8}"#)
        let reply = try #require(actions.payloads(namespace: .multizone, type: "CASTING_GROUPS").first)
        #expect(reply == ["type": "CASTING_GROUPS", "requestId": 8, "status": ["groups": []]])
    }

    @Test func setDeviceVolumeChangesTheSpeakerAndReportsDeviceUpdated() throws {
        var device = Self.speaker()
        let deviceID = try #require(device.engine.configuration.identity.udn)
        let actions = Self.multizone(
            &device,
            #"{"type":"SET_DEVICE_VOLUME","requestId":9,"deviceId":"\#(deviceID)","volume":{"level":0.25}}"#
        )
        let updated = try #require(actions.payloads(namespace: .multizone, type: "DEVICE_UPDATED").first)
        #expect(updated["device"]?["deviceId"]?.stringValue == deviceID)
        #expect(updated["device"]?["volume"]?["level"] == 0.25)
        let status = try #require(actions.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(status["status"]?["volume"]?["level"] == 0.25)
        #expect(actions.contains(.receiverStatusChanged))

        let muted = Self.multizone(
            &device,
            #"{"type":"SET_DEVICE_VOLUME","deviceId":"\#(deviceID)","volume":{"muted":true}}"#
        )
        #expect(
            muted.payloads(namespace: .multizone, type: "DEVICE_UPDATED").first?["device"]?["volume"]?["muted"] == true
        )
    }

    @Test(arguments: [
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{"level":1.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{"level":-0.1}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{"level":"0.5"}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{"muted":1}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":0.5}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID"}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"00000000-0000-0000-0000-000000000000","volume":{"level":0.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":7,"volume":{"level":0.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"ID","volume":{"level":1e999}}"#,
        #"{"type":"GET_STATUS""#,
        #"[1,2]"#,
        #"{"requestId":1}"#,
        #"{"type":"DEVICE_UPDATED"}"#,
    ])
    func malformedOrInvalidRequestsChangeNothing(_ template: String) throws {
        var device = Self.speaker()
        let deviceID = try #require(device.engine.configuration.identity.udn)
        let before = device.engine.receiverStatus
        let actions = Self.multizone(&device, template.replacingOccurrences(of: "\"ID\"", with: "\"\(deviceID)\""))
        #expect(actions.sent.isEmpty)
        #expect(!actions.logs.isEmpty)
        #expect(device.engine.receiverStatus == before)
    }

    @Test func nonMultizoneProfileDropsTheNamespace() throws {
        var device = DeviceProfileTests.harness(.hdmiDongle)
        device.open()
        device.connectPlatform()
        let actions = device.send(#"{"type":"GET_STATUS","requestId":1}"#, namespace: .multizone)
        #expect(actions.sent.isEmpty)
    }
}
