import CastTestSupport
import Foundation
import Testing

@testable import CastCore

/// `DEVICE_ADDED`, `DEVICE_UPDATED` and `DEVICE_REMOVED`: decoded from members of the real
/// groups' captures, written back without loss, and malformed input refused by path.
@Suite(.requires(.realDevicePayloads)) struct MultizoneDeviceMessageTests {
    /// Each member of every captured MULTIZONE_STATUS, as a group would announce it.
    static func capturedMembers() throws -> [JSONValue] {
        try RealDevicePayloads.records(kind: "MULTIZONE_STATUS").flatMap { record in
            try JSONValue(parsing: record.payload)["status"]?["devices"]?.arrayValue ?? []
        }
    }

    @Test func capturedMembersDecodeAsDeviceMessagesWithoutLoss() throws {
        let members = try Self.capturedMembers()
        #expect(members.count == 6)
        for member in members {
            for type in ["DEVICE_ADDED", "DEVICE_UPDATED"] {
                let payload: JSONValue = ["type": .string(type), "requestId": 0, "device": member]
                let message = try MultizoneMessage(jsonString: payload.description)
                #expect(message.type.rawValue == type)
                #expect(message.requestID == 0)
                let device: MultizoneDevice
                switch message {
                case .deviceAdded(let added) where type == "DEVICE_ADDED": device = added.device
                case .deviceUpdated(let updated) where type == "DEVICE_UPDATED": device = updated.device
                default:
                    Issue.record("\(type) decoded as \(message)")
                    continue
                }
                #expect(device.deviceID == member["deviceId"]?.stringValue)
                #expect(device.volume?.level == member["volume"]?["level"]?.doubleValue)
                #expect(try JSONValue(parsing: message.jsonString()) == payload)
            }
        }
    }

    @Test func deviceRemovedCarriesTheID() throws {
        let payload =
            #"{"type":"DEVICE_REMOVED","requestId":0,"deviceId":"d79e7a52-47f2-c034-11d4-945d28aaedbc","extra":1}"#
        let message = try MultizoneMessage(jsonString: payload)
        guard case .deviceRemoved(let removed) = message else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(removed.deviceID == "d79e7a52-47f2-c034-11d4-945d28aaedbc")
        #expect(removed.unknownMembers == ["extra": 1])
        #expect(try JSONValue(parsing: message.jsonString()) == JSONValue(parsing: payload))
    }

    @Test func otherTypesAreKeptWhole() throws {
        let payload = #"{"type":"PLAYBACK_SESSION_UPDATED","requestId":0,"playbackSession":null}"#
        let message = try MultizoneMessage(jsonString: payload)
        guard case .unknown(let other) = message else {
            Issue.record("decoded as \(message)")
            return
        }
        #expect(other.type == .playbackSessionUpdated)
        #expect(try JSONValue(parsing: message.jsonString()) == JSONValue(parsing: payload))
    }

    @Test(arguments: [
        (#"{"type":"DEVICE_UPDATED","requestId":0}"#, MessageDecodingError.Code.missingField, "device"),
        (#"{"type":"DEVICE_UPDATED","device":null}"#, .missingField, "device"),
        (#"{"type":"DEVICE_UPDATED","device":[]}"#, .wrongType, "device"),
        (#"{"type":"DEVICE_ADDED","device":{"name":"A"}}"#, .missingField, "device.deviceId"),
        (#"{"type":"DEVICE_ADDED","device":{"deviceId":7}}"#, .wrongType, "device.deviceId"),
        (
            #"{"type":"DEVICE_UPDATED","device":{"deviceId":"d","volume":{"level":"x"}}}"#, .wrongType,
            "device.volume.level"
        ),
        (#"{"type":"DEVICE_UPDATED","device":{"deviceId":"d","capabilities":"4"}}"#, .wrongType, "device.capabilities"),
        (#"{"type":"DEVICE_UPDATED","requestId":"1","device":{"deviceId":"d"}}"#, .wrongType, "requestId"),
        (#"{"type":"DEVICE_REMOVED"}"#, .missingField, "deviceId"),
        (#"{"type":"DEVICE_REMOVED","deviceId":["d"]}"#, .wrongType, "deviceId"),
    ])
    func malformedDeviceMessagesNameWhatIsWrong(payload: String, code: MessageDecodingError.Code, path: String) {
        do {
            _ = try MultizoneMessage(jsonString: payload)
            Issue.record("\(payload) decoded")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.path == path, "\(error)")
        }
    }

    @Test(arguments: ["", "{", "[]", "null", #"{"type":5}"#, #"{"device":{"deviceId":"d"}}"#])
    func notAMessageAtAll(payload: String) {
        #expect(throws: MessageDecodingError.self) { _ = try MultizoneMessage(jsonString: payload) }
    }

    @Test func aNonFiniteLevelCannotBeWritten() {
        let message = MultizoneMessage.deviceUpdated(
            MultizoneDeviceMessage(
                type: .deviceUpdated,
                device: MultizoneDevice(deviceID: "d", volume: Volume(level: .nan))
            )
        )
        #expect(throws: MessageEncodingError.self) { _ = try message.jsonString() }
    }
}
