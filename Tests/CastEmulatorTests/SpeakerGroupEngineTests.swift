import CastCore
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// The engine of a speaker group and of its members, driven with a manual clock; the hub's
/// part (carrying events between them) is played by the test.
@Suite(.requires(.realDevicePayloads)) struct SpeakerGroupEngineTests {
    static let kitchenID = "11111111-2222-3333-4444-555555555555"
    static let hallID = "66666666-7777-8888-9999-aaaaaaaaaaaa"
    static let groupID = "0f0f0f0f-0000-1111-2222-333333333333"

    static func members() -> [MultizoneDevice] {
        [
            MultizoneDevice(
                deviceID: kitchenID,
                name: "Kitchen",
                capabilities: 196_612,
                volume: Volume(level: 0.4, muted: false)
            ),
            MultizoneDevice(
                deviceID: hallID,
                name: "Hall",
                capabilities: 229_381,
                volume: Volume(level: 0.8, muted: false)
            ),
        ]
    }

    static func group() -> DeviceHarness {
        var device = DeviceHarness {
            $0 = VirtualDeviceConfiguration(
                identity: DeviceIdentity(
                    friendlyName: "Downstairs",
                    deviceID: groupID.replacingOccurrences(of: "-", with: ""),
                    modelName: "Google Cast Group"
                ),
                profile: .speakerGroup,
                applications: [.defaultMediaReceiver],
                randomSeed: DeviceHarness.defaultSeed
            )
            $0.multizone.members = members()
        }
        device.open()
        device.connectPlatform()
        return device
    }

    static func member() -> DeviceHarness {
        var device = DeviceHarness {
            $0 = VirtualDeviceConfiguration(
                identity: DeviceIdentity(
                    friendlyName: "Kitchen",
                    deviceID: kitchenID.replacingOccurrences(of: "-", with: "")
                ),
                profile: .speaker,
                randomSeed: DeviceHarness.defaultSeed
            )
        }
        device.open()
        device.connectPlatform()
        return device
    }

    static func events(_ actions: [DeviceAction]) -> [SpeakerGroupEvent] {
        actions.compactMap { if case .multizone(let event) = $0 { event } else { nil } }
    }

    @Test func groupListsItsMembersWithTheKeysOfTheRealGroup() throws {
        var group = Self.group()
        let actions = group.send(#"{"type":"GET_STATUS","requestId":3}"#, namespace: .multizone)
        let reply = try #require(actions.payloads(namespace: .multizone, type: "MULTIZONE_STATUS").first)
        #expect(reply["requestId"] == 3)
        let devices = try #require(reply["status"]?["devices"]?.arrayValue)
        #expect(devices.map { $0["deviceId"]?.stringValue } == [Self.kitchenID, Self.hallID])
        #expect(devices.map { $0["name"]?.stringValue } == ["Kitchen", "Hall"])
        // Levels leave the group as float32, as every captured level does.
        #expect(devices[0]["volume"]?["level"]?.doubleValue == DeviceProfile.float32(0.4))
        #expect(reply["status"]?["isMultichannel"] == false)
        #expect(reply["status"]?["playbackSession"] == nil)

        let capture = try #require(
            RealDevicePayloads.records(kind: "MULTIZONE_STATUS").first { $0.device.contains("group") }
        )
        let real = try JSONValue(parsing: capture.payload)
        let ours = DeviceProfileTests.members(reply)
        for (path, type) in DeviceProfileTests.members(real) {
            #expect(ours[path] == type, "member \(path) (\(type)) of the real group's MULTIZONE_STATUS")
        }
        for (path, type) in ours {
            #expect(DeviceProfileTests.members(real)[path] == type, "member \(path) (\(type)) the real group lacks")
        }
    }

    @Test func groupVolumeIsTheMeanOfItsMembersAndScalesThem() throws {
        var group = Self.group()
        let status = try DeviceProfileTests.receiverStatus(&group, requestID: 1)
        #expect(status["status"]?["volume"]?["level"]?.doubleValue == DeviceProfile.float32(0.6))
        #expect(status["status"]?["volume"]?["controlType"] == "master")
        #expect(status["status"]?["applications"] == nil)

        let actions = group.send(
            #"{"type":"SET_VOLUME","requestId":2,"volume":{"level":0.3}}"#,
            namespace: .receiver
        )
        let asked = Self.events(actions).compactMap { event -> (String, Double?)? in
            if case .setMemberVolume(let id, let volume) = event { (id, volume.level) } else { nil }
        }
        #expect(asked.map(\.0) == [Self.kitchenID, Self.hallID])
        #expect(abs((asked[0].1 ?? 0) - 0.2) < 1e-12 && abs((asked[1].1 ?? 0) - 0.4) < 1e-12)
        #expect(actions.payloads(namespace: .multizone, type: "DEVICE_UPDATED").count == 2)
        let reply = try #require(actions.payloads(namespace: .receiver).first { $0["requestId"] == 2 })
        #expect(reply["status"]?["volume"]?["level"]?.doubleValue == DeviceProfile.float32(0.3))

        // A level above the mean's room caps each member at 1.
        let loud = group.send(#"{"type":"SET_VOLUME","requestId":3,"volume":{"level":1}}"#, namespace: .receiver)
        let levels = Self.events(loud).compactMap { event -> Double? in
            if case .setMemberVolume(_, let volume) = event { volume.level } else { nil }
        }
        #expect(levels.allSatisfy { $0 <= 1 })
        #expect(levels.last == 1)

        let muted = group.send(#"{"type":"SET_VOLUME","requestId":4,"volume":{"muted":true}}"#, namespace: .receiver)
        #expect(Self.events(muted).count == 2)
        #expect(group.engine.receiverStatus.volume?.muted == true)
    }

    @Test func setDeviceVolumeOnTheGroupAsksThatMember() throws {
        var group = Self.group()
        let actions = group.send(
            #"{"type":"SET_DEVICE_VOLUME","requestId":5,"deviceId":"\#(Self.hallID)","volume":{"level":0.5,"muted":true}}"#,
            namespace: .multizone
        )
        #expect(
            Self.events(actions) == [.setMemberVolume(deviceID: Self.hallID, volume: Volume(level: 0.5, muted: true))]
        )
        let updated = try #require(actions.payloads(namespace: .multizone, type: "DEVICE_UPDATED").first)
        #expect(updated["requestId"] == 0)
        #expect(updated["device"]?["deviceId"]?.stringValue == Self.hallID)
        #expect(updated["device"]?["volume"]?["muted"] == true)
        // The group's own volume follows: the mean of 0.4 and 0.5.
        #expect(group.engine.receiverStatus.volume?.level == DeviceProfile.float32(0.45))
        // The member's echo of the same volume changes nothing.
        let echo = group.engine.multizoneUpdate(
            .memberChanged(
                MultizoneDevice(
                    deviceID: Self.hallID,
                    name: "Hall",
                    capabilities: 229_381,
                    volume: Volume(level: 0.5, muted: true)
                )
            ),
            at: group.now
        )
        #expect(echo.sent.isEmpty)
    }

    @Test(arguments: [
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"00000000-0000-0000-0000-000000000000","volume":{"level":0.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"GROUP","volume":{"level":0.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":{"level":1.01}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":{"level":-1}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":{"level":1e999}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":{"level":null}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":{"muted":"yes"}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":"HALL","volume":[0.5]}"#,
        #"{"type":"SET_DEVICE_VOLUME","volume":{"level":0.5}}"#,
        #"{"type":"SET_DEVICE_VOLUME","deviceId":null,"volume":{"level":0.5}}"#,
    ])
    func invalidMemberVolumeRequestsChangeNothing(_ template: String) {
        var group = Self.group()
        let before = group.engine.multizoneStatus
        let text = template.replacingOccurrences(of: "\"HALL\"", with: "\"\(Self.hallID)\"")
            .replacingOccurrences(of: "\"GROUP\"", with: "\"\(Self.groupID)\"")
        let actions = group.send(text, namespace: .multizone)
        #expect(actions.sent.isEmpty)
        #expect(Self.events(actions).isEmpty)
        #expect(!actions.logs.isEmpty)
        #expect(group.engine.multizoneStatus == before)
    }

    @Test func membershipChangesReachTheGroupsSenders() throws {
        var group = Self.group()
        let newcomer = MultizoneDevice(
            deviceID: "abcdefab-cdef-abcd-efab-cdefabcdefab",
            name: "Porch",
            capabilities: 196_612,
            volume: Volume(level: 0.1, muted: false)
        )
        let added = group.engine.multizoneUpdate(.memberChanged(newcomer), at: group.now)
        let message = try #require(added.payloads(namespace: .multizone, type: "DEVICE_ADDED").first)
        #expect(message["device"]?["name"] == "Porch")
        #expect(group.engine.multizoneStatus.devices.count == 3)

        let removed = group.engine.multizoneUpdate(.memberRemoved(deviceID: Self.kitchenID), at: group.now)
        let gone = try #require(removed.payloads(namespace: .multizone, type: "DEVICE_REMOVED").first)
        #expect(gone == ["type": "DEVICE_REMOVED", "requestId": 0, "deviceId": .string(Self.kitchenID)])
        #expect(group.engine.multizoneStatus.devices.map(\.deviceID) == [Self.hallID, newcomer.deviceID])
        // The group volume follows the members left: (0.8 + 0.1) / 2.
        #expect(group.engine.receiverStatus.volume?.level == DeviceProfile.float32(0.45))
        #expect(group.engine.multizoneUpdate(.memberRemoved(deviceID: Self.kitchenID), at: group.now).sent.isEmpty)
    }

    @Test func playingOnTheGroupStartsAPlaybackSessionMembersLeave() throws {
        var group = Self.group()
        let launch = group.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":10}"#, namespace: .receiver)
        let status = try #require(launch.payloads(namespace: .receiver).first { $0["requestId"] == 10 })
        let sessionID = try #require(status["status"]?["applications"]?[0]?["sessionId"]?.stringValue)
        #expect(Self.events(launch) == [.groupPlaybackChanged(sessionID: sessionID)])
        let updated = try #require(launch.payloads(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED").first)
        #expect(updated["playbackSession"]?["sessionId"]?.stringValue == sessionID)
        #expect(updated["playbackSession"]?["deviceIds"] == [.string(Self.kitchenID), .string(Self.hallID)])
        #expect(group.engine.multizoneStatus.unknownMembers["playbackSession"]?["appId"] == "CC1AD845")

        let left = group.engine.multizoneUpdate(.memberLeftPlayback(deviceID: Self.kitchenID), at: group.now)
        let after = try #require(left.payloads(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED").first)
        #expect(after["playbackSession"]?["deviceIds"] == [.string(Self.hallID)])
        #expect(group.engine.groupPlaybackMembers == [Self.hallID])

        let stop = group.send(#"{"type":"STOP","requestId":11}"#, namespace: .receiver)
        #expect(Self.events(stop) == [.groupPlaybackChanged(sessionID: nil)])
        let ended = try #require(stop.payloads(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED").first)
        #expect(ended["playbackSession"] == .null)
    }

    @Test func memberFollowingTheGroupReportsTheFollowerAppAsRealMembersDo() throws {
        var member = Self.member()
        let follow = member.engine.multizoneUpdate(
            .followGroup(groupID: Self.groupID, sessionID: "984f23b7-35bf-47b5-a3c9-90a9a200235d"),
            at: member.now
        )
        let status = try #require(follow.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        let app = try #require(status["status"]?["applications"]?[0])
        #expect(app["appId"] == "531A4F84")
        #expect(app["universalAppId"] == "CC1AD845")
        #expect(app["transportId"] == nil && app["namespaces"] == nil)
        let captures = try RealDevicePayloads.records(kind: "RECEIVER_STATUS").filter {
            $0.payload.contains("531A4F84")
        }
        #expect(!captures.isEmpty)
        for capture in captures {
            let real = try #require(try JSONValue(parsing: capture.payload)["status"]?["applications"]?[0])
            #expect(
                DeviceProfileTests.members(app) == DeviceProfileTests.members(real),
                "the follower app's members differ from \(capture)"
            )
        }
        #expect(follow.contains(.appsChanged))

        // Its own LAUNCH takes the member out of the group's playback.
        let launch = member.send(#"{"type":"LAUNCH","appId":"CC1AD845","requestId":20}"#, namespace: .receiver)
        #expect(Self.events(launch) == [.leftGroupPlayback(groupID: Self.groupID)])
        #expect(member.engine.runningApplication?.appID == "CC1AD845")
        #expect(member.engine.followedGroupSession == nil)
        // A busy member asked to follow refuses and says so.
        let busy = member.engine.multizoneUpdate(.followGroup(groupID: Self.groupID, sessionID: "s2"), at: member.now)
        #expect(Self.events(busy) == [.leftGroupPlayback(groupID: Self.groupID)])
        #expect(member.engine.runningApplication?.appID == "CC1AD845")
    }

    @Test func stoppingTheFollowerSessionOnAMemberLeavesTheGroupPlayback() throws {
        var member = Self.member()
        _ = member.engine.multizoneUpdate(.followGroup(groupID: Self.groupID, sessionID: "s1"), at: member.now)
        let stop = member.send(#"{"type":"STOP","sessionId":"s1","requestId":4}"#, namespace: .receiver)
        #expect(Self.events(stop) == [.leftGroupPlayback(groupID: Self.groupID)])
        #expect(member.engine.runningApplication == nil)
    }

    @Test func memberListsItsGroupsAndReportsItsVolumeToThem() throws {
        var member = Self.member()
        let reference = SpeakerGroupReference(
            name: "Downstairs",
            groupID: Self.groupID,
            leaderAddress: "127.0.0.2",
            castPort: 32_101,
            isLeader: true
        )
        _ = member.engine.multizoneUpdate(.castingGroups([reference]), at: member.now)
        let actions = member.send(#"{"type":"GET_CASTING_GROUPS","requestId":6}"#, namespace: .multizone)
        let reply = try #require(actions.payloads(namespace: .multizone, type: "CASTING_GROUPS").first)
        #expect(
            reply == [
                "type": "CASTING_GROUPS", "requestId": 6,
                "status": ["groups": [["deviceId": .string(Self.groupID), "name": "Downstairs"]]],
            ]
        )
        let volume = member.send(#"{"type":"SET_VOLUME","requestId":7,"volume":{"level":0.25}}"#, namespace: .receiver)
        #expect(Self.events(volume) == [.volumeChanged(Volume(level: 0.25, muted: false))])
        let applied = member.engine.multizoneUpdate(.applyVolume(Volume(level: 0.5, muted: false)), at: member.now)
        #expect(Self.events(applied) == [.volumeChanged(Volume(level: 0.5, muted: false))])
        #expect(applied.payloads(namespace: .multizone, type: "DEVICE_UPDATED").count == 1)
        #expect(applied.payloads(namespace: .receiver, type: "RECEIVER_STATUS").count == 1)
    }

    @Test func memberUpdatesSentToADeviceThatIsNoGroupAreLogged() {
        var member = Self.member()
        let actions = member.engine.multizoneUpdate(
            .memberChanged(MultizoneDevice(deviceID: Self.hallID)),
            at: member.now
        )
        #expect(actions.sent.isEmpty)
        #expect(!actions.logs.isEmpty)
    }
}
