import CastTestSupport
import Foundation
import Testing

@testable import CastCore

/// Every payload captured from real Cast hardware decodes, and encodes back without losing a
/// member; the quirks of real devices and apps read as the protocol means them.
@Suite(.requires(.realDevicePayloads)) struct RealDevicePayloadTests {
    /// The message a payload decodes to, by the namespace its kind travels on, written back.
    private static func roundTrip(_ record: RealDevicePayloads.Record) throws -> (decoded: String, modelled: Bool) {
        switch record.kind {
        case "RECEIVER_STATUS", "LAUNCH_ERROR":
            let message = try ReceiverMessage(jsonString: record.payload)
            #expect(message.type.rawValue == record.kind, "\(record)")
            return (try message.jsonString(), message.message != nil)
        case "MEDIA_STATUS":
            let message = try MediaMessage(jsonString: record.payload)
            guard case .mediaStatus = message else {
                Issue.record("\(record): decoded as \(message.type)")
                return (record.payload, false)
            }
            return (try message.jsonString(), true)
        case "MULTIZONE_STATUS":
            let message = try MultizoneMessage(jsonString: record.payload)
            guard case .multizoneStatus = message else {
                Issue.record("\(record): decoded as \(message.type)")
                return (record.payload, false)
            }
            return (try message.jsonString(), true)
        case "CLOSE":
            let message = try ConnectionMessage(jsonString: record.payload)
            guard case .close = message else {
                Issue.record("\(record): decoded as \(message.type)")
                return (record.payload, false)
            }
            return (try message.jsonString(), true)
        case "EUREKA_INFO":
            let info = try DeviceSetupInfo(jsonBytes: Array(record.payload.utf8))
            return (info.document.description, true)
        default:
            // A type no platform namespace models (an app's TIME_TICK, the platform-to-app
            // messages a receiver sees): kept whole, as an app's channel receives it.
            let message = try MediaMessage(jsonString: record.payload)
            guard case .unknown(let unknown) = message else {
                Issue.record("\(record): a modelled type \(message.type)")
                return (record.payload, false)
            }
            #expect(unknown.type.rawValue == record.kind, "\(record)")
            return (try message.jsonString(), false)
        }
    }

    @Test func everyPayloadDecodesAndEncodesBackWhole() throws {
        let records = try RealDevicePayloads.records()
        var modelledKinds: Set<String> = []
        for record in records {
            let (decoded, modelled) = try Self.roundTrip(record)
            if modelled { modelledKinds.insert(record.kind) }
            let losses = lossesInRoundTrip(
                original: try JSONValue(parsing: record.payload),
                decoded: try JSONValue(parsing: decoded)
            )
            #expect(losses.isEmpty, "\(record): \(losses)")
        }
        // Every kind a sender acts on is decoded into its type, not kept as unknown.
        #expect(
            modelledKinds.isSuperset(of: [
                "RECEIVER_STATUS", "MEDIA_STATUS", "LAUNCH_ERROR", "MULTIZONE_STATUS", "CLOSE", "EUREKA_INFO",
            ]),
            "\(modelledKinds)"
        )
    }

    @Test func membersNotModelledAreKeptWhereTheyWere() throws {
        let receivers = try RealDevicePayloads.records(kind: "RECEIVER_STATUS").map {
            try ReceiverStatusMessage(jsonString: $0.payload)
        }
        // Newer firmware: `status.version` (kept), `applications[].senderConnected` (modelled).
        #expect(receivers.contains { $0.status.unknownMembers["version"] == .integer(2) })
        #expect(
            receivers.contains { message in
                message.status.applications?.contains { $0.senderConnected == true } ?? false
            }
        )
        let media = try RealDevicePayloads.records(kind: "MEDIA_STATUS").flatMap {
            try MediaStatusMessage(jsonString: $0.payload).status
        }
        // CAF's `mediaCategory`, and a stream volume echoing `controlType`/`stepInterval`.
        #expect(media.contains { $0.media?.unknownMembers["mediaCategory"] == "VIDEO" })
        #expect(media.contains { $0.extendedStatus?.media?.unknownMembers["mediaCategory"] == "IMAGE" })
        let echoed = try #require(media.first { $0.volume?.unknownMembers["controlType"] != nil })
        #expect(echoed.volume?.unknownMembers["controlType"] == "attenuation")
        #expect(echoed.volume?.unknownMembers["stepInterval"] == .double(0.05000000074505806))
        // customData comes through whole, the sender's own typo included.
        let itemData = media.compactMap { $0.items?.first?.customData }
        let item = try #require(itemData.first { $0["payload"] != nil })
        #expect(item["payload"]?["title:"]?.stringValue != nil)
    }

    @Test func quirksOfRealAppsReadAsTheProtocolMeansThem() throws {
        let media = try RealDevicePayloads.records(kind: "MEDIA_STATUS").flatMap {
            try MediaStatusMessage(jsonString: $0.payload).status
        }
        // A load in progress: IDLE, with the load in `extendedStatus`.
        let loading = try #require(media.first { $0.extendedStatus != nil })
        #expect(loading.playerState == .idle)
        #expect(loading.extendedStatus?.playerState == .loading)
        #expect(loading.extendedStatus?.media?.contentID != nil)
        #expect(loading.effectivePlayerState == .loading)
        // The final IDLE/FINISHED status carries no media.
        let finished = try #require(media.first { $0.idleReason == .finished })
        #expect(finished.media == nil)
        #expect(finished.playerState == .idle)
        #expect(finished.effectivePlayerState == .idle)
        // Lower-case stream types echoed back by an app read as the constant.
        let lowerCase = try #require(media.first { $0.media?.contentType == "audio/mpeg" })
        #expect(lowerCase.media?.streamType == .buffered)
        #expect(lowerCase.items?.first?.media?.streamType == .buffered)
        // `contentType: null` reads as absent.
        let noType = try #require(
            media.first { $0.media?.contentID?.hasSuffix("99fd6998-aa4d-4764-9b41-c6869dcfc85f.mp3") == true }
        )
        #expect(noType.media?.contentType == nil)
        // A ten-digit media session id (YouTube-style receivers).
        #expect(media.contains { $0.mediaSessionID == 1_927_979_685 })
        // Float32 values widened to double read exactly.
        let receivers = try RealDevicePayloads.records(kind: "RECEIVER_STATUS").map {
            try ReceiverStatusMessage(jsonString: $0.payload).status
        }
        #expect(receivers.contains { $0.volume?.stepInterval == Double(Float(0.05)) })
        #expect(receivers.contains { $0.volume?.stepInterval == Double(Float(0.02)) })
        #expect(receivers.contains { $0.volume?.stepInterval == Double(Float(0.01)) })
        // An idle speaker of recent firmware lists no applications at all.
        #expect(receivers.contains { $0.applications == nil && $0.userEq?["low_shelf"] != nil })
    }

    @Test func multizoneStatusListsTheGroup() throws {
        let statuses = try RealDevicePayloads.records(kind: "MULTIZONE_STATUS").map {
            try MultizoneStatusMessage(jsonString: $0.payload).status
        }
        let group = try #require(statuses.max { $0.devices.count < $1.devices.count })
        #expect(group.devices.count == 4)
        #expect(group.isMultichannel == false)
        #expect(group.devices.contains { $0.name == "Kitchen display" && $0.capabilities == 229_381 })
        #expect(group.devices.allSatisfy { $0.volume?.level != nil })
    }

    @Test func setupDocumentsGiveNameModelAndIdentity() throws {
        let documents = try RealDevicePayloads.records(kind: "EUREKA_INFO").map {
            try DeviceSetupInfo(jsonBytes: Array($0.payload.utf8))
        }
        #expect(documents.map(\.name).contains("ChromeCastVideo"))
        let shield = try #require(documents.first { $0.name == "Shield woonkamer" })
        #expect(shield.deviceID == UUID(uuidString: "ecdd1875-99fa-75be-deed-71691385bc70"))
        #expect(shield.castBuildRevision == "1.56.276477")
        // A redacted `ssdp_udn` is no id.
        #expect(documents.first { $0.name == "ChromeCastVideo" }?.deviceID == nil)
    }
}

/// Forms of status real receivers and apps send besides the canonical one, and malformed
/// input of the decoders added for real payloads.
@Suite struct TolerantStatusDecodingTests {
    @Test func mediaStatusFieldsAtTheTopLevel() throws {
        let payload = #"""
            {"type":"MEDIA_STATUS","requestId":4,"mediaSessionId":12,"playerState":"PLAYING","currentTime":3.5,
             "media":{"contentId":"a.mp3","streamType":"buffered"},"vendorField":{"x":1}}
            """#
        let message = try MediaStatusMessage(jsonString: payload)
        #expect(message.requestID == 4)
        let status = try #require(message.status.first)
        #expect(message.status.count == 1)
        #expect(status.mediaSessionID == 12)
        #expect(status.playerState == .playing)
        #expect(status.media?.streamType == .buffered)
        #expect(status.unknownMembers == ["vendorField": ["x": 1]])
        guard case .mediaStatus(let viaEnum) = try MediaMessage(jsonString: payload) else {
            Issue.record("not a MEDIA_STATUS")
            return
        }
        #expect(viaEnum == message)
        // The Decodable path (Foundation's decoder) reads the same form; it does not keep
        // members it does not model.
        let viaFoundation = try JSONDecoder().decode(MediaStatusMessage.self, from: Data(payload.utf8))
        #expect(viaFoundation.status.map(\.mediaSessionID) == [12])
        #expect(viaFoundation.status.first?.media?.streamType == .buffered)
    }

    @Test func mediaStatusAsOneObject() throws {
        let message = try MediaStatusMessage(
            jsonString: #"{"type":"MEDIA_STATUS","status":{"mediaSessionId":3,"playerState":"PAUSED"}}"#
        )
        #expect(message.status.map(\.mediaSessionID) == [3])
        #expect(message.requestID == nil)
    }

    @Test(arguments: [
        (#"{"type":"MEDIA_STATUS","requestId":1}"#, MessageDecodingError.Code.missingField, "status"),
        (#"{"type":"MEDIA_STATUS","status":null}"#, .missingField, "status"),
        (#"{"type":"MEDIA_STATUS","status":5}"#, .wrongType, "status"),
        (#"{"type":"MEDIA_STATUS","status":[{"playerState":"IDLE"}]}"#, .missingField, "status[0].mediaSessionId"),
        (#"{"type":"MEDIA_STATUS","mediaSessionId":"x"}"#, .wrongType, "mediaSessionId"),
        (#"{"type":"MULTIZONE_STATUS","status":{"devices":{}}}"#, .wrongType, "status.devices"),
        (
            #"{"type":"MULTIZONE_STATUS","status":{"devices":[{"name":"A"}]}}"#, .missingField,
            "status.devices[0].deviceId"
        ),
        (
            #"{"type":"MULTIZONE_STATUS","status":{"devices":[{"deviceId":"d","volume":{"level":"x"}}]}}"#,
            .wrongType, "status.devices[0].volume.level"
        ),
        (#"{"type":"MULTIZONE_STATUS"}"#, .missingField, "status"),
    ])
    func malformedStatusNamesWhatIsWrong(payload: String, code: MessageDecodingError.Code, path: String) throws {
        let error = decodingError {
            if payload.contains("MULTIZONE") {
                _ = try MultizoneMessage(jsonString: payload)
            } else {
                _ = try MediaMessage(jsonString: payload)
            }
        }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.path == path, "\(String(describing: error))")
    }

    @Test func malformedSetupDocuments() throws {
        #expect(decodingError { _ = try DeviceSetupInfo(jsonBytes: Array("{".utf8)) }?.code == .invalidJSON)
        #expect(decodingError { _ = try DeviceSetupInfo(jsonBytes: Array("[]".utf8)) }?.code == .wrongType)
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(decodingError { _ = try DeviceSetupInfo(jsonBytes: Array(deep.utf8)) } != nil)
        // Members of the wrong type read as absent, not as a crash or a wrong value.
        let odd = try DeviceSetupInfo(
            jsonBytes: Array(
                #"{"name":7,"ssdp_udn":"not-a-uuid","device_info":{"name":"Den","model_name":[],"capabilities":{"display_supported":"no"}}}"#
                    .utf8
            )
        )
        #expect(odd.name == "Den")
        #expect(odd.modelName == nil)
        #expect(odd.deviceID == nil)
        #expect(odd.displaySupported == nil)
    }

    @Test func unknownMembersSurviveEncodingAndEquality() throws {
        let payload =
            #"{"type":"RECEIVER_STATUS","requestId":2,"status":{"version":2,"volume":{"level":0.5,"newThing":[1,2]},"applications":[{"appId":"CC1AD845","senderConnected":false}]},"extra":"kept"}"#
        let message = try ReceiverStatusMessage(jsonString: payload)
        #expect(message.unknownMembers == ["extra": "kept"])
        #expect(message.status.unknownMembers == ["version": 2])
        #expect(message.status.volume?.unknownMembers == ["newThing": [1, 2]])
        #expect(message.status.applications?.first?.senderConnected == false)
        #expect(message.status.applications?.first?.unknownMembers == [:])
        #expect(try JSONValue(parsing: message.jsonString()) == JSONValue(parsing: payload))
        #expect(try ReceiverStatusMessage(jsonString: message.jsonString()) == message)
        var changed = message
        changed.status.unknownMembers["version"] = 3
        #expect(changed != message)
    }
}
