import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The discovery list learning speaker groups from virtual devices in memory
/// (``InMemorySpeakerGroup``): a speaker's `CASTING_GROUPS`, a group's `MULTIZONE_STATUS` (its
/// members, and each member's groups), the setup document's `multizone.groups`, and a member
/// going offline mid-playback. What the list learns is awaited on the manager's events.
@Suite struct DiscoveryGroupMembershipTests {
    /// Kitchen and Hall grouped as Downstairs, led by Hall so that the group outlives Kitchen.
    static func speakers(_ rig: InMemoryRig) -> InMemorySpeakerGroup {
        InMemorySpeakerGroup(rig: rig, leader: "Hall")
    }

    @Test func theListLearnsGroupsAndMembersFromSessions() async throws {
        let rig = InMemoryRig()
        let speakers = Self.speakers(rig)
        let browser = ScriptedBrowser()
        let context = rig.context(rig.options(), browser: browser, setupDocumentsOf: [speakers.kitchen, speakers.hall])
        let manager = context.discoveryManager
        let recorder = DiscoveryRecorder()
        manager.add(recorder)
        // The recorder hears each event before the stream does (one hop to the queue).
        let updates = manager.events()
        try manager.startDiscovery()
        let (group, kitchen, hall) = (
            speakers.described(speakers.group), speakers.described(speakers.kitchen), speakers.described(speakers.hall)
        )
        for device in [group, kitchen, hall] { browser.announce(device) }
        try await rig.run(until: "three devices listed", watching: updates) { manager.deviceCount == 3 }
        #expect(group.isGroup && !kitchen.isGroup)
        // mDNS says nothing about membership.
        #expect(manager.devices.allSatisfy { $0.groups.isEmpty && $0.groupMembers.isEmpty })

        // A session to a speaker asks which groups it is in (CASTING_GROUPS).
        let hallSession = try await rig.run("the session to Hall") {
            try await context.sessionManager.startSession(with: hall)
        }
        let downstairs = CastDevice.GroupReference(id: group.id, name: "Downstairs")
        try await rig.run(until: "Hall listed in Downstairs", watching: updates) {
            manager.device(withID: hall.id)?.groups == [downstairs] && recorder.events.contains("update Hall")
        }
        #expect(hallSession.castingGroups == [downstairs])
        #expect(manager.groups(containing: hall).map(\.id) == [group.id])
        try await rig.run("the end of Hall's session") { await context.sessionManager.endSession() }

        // A session to the group lists its members, and each member lists the group.
        let listedGroup = try #require(manager.device(withID: group.id))
        let session = try await rig.run("the session to the group") {
            try await context.sessionManager.startSession(with: listedGroup)
        }
        try await rig.run(until: "the group's members listed", watching: updates) {
            manager.device(withID: group.id)?.groupMembers.map(\.name) == ["Kitchen", "Hall"]
                && recorder.events.contains("update Downstairs") && recorder.events.contains("update Kitchen")
        }
        #expect(manager.device(withID: group.id)?.groupMembers.map(\.id) == [kitchen.id, hall.id])
        #expect(manager.members(of: group).map(\.friendlyName) == ["Kitchen", "Hall"])
        #expect(manager.device(withID: kitchen.id)?.groups == [downstairs])
        #expect(manager.device(withID: hall.id)?.groups == [downstairs], "listed once, though learned twice")

        // Kitchen goes offline while the group plays: the list says so.
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(
                LoadRequestData(
                    media: MediaInformation(
                        contentID: "http://127.0.0.1:9/a.mp3",
                        streamType: .buffered,
                        contentType: "audio/mpeg",
                        duration: 600
                    )
                )
            ).result
        }
        try await rig.run(until: "Kitchen plays with the group") {
            speakers.kitchen.engineSnapshot?.runningApplication?.appID == "531A4F84"
        }
        let later = manager.events()
        try await rig.run("Kitchen going offline") { await speakers.stop(speakers.kitchen) }
        try await rig.run(until: "the group without Kitchen", watching: updates) {
            manager.device(withID: group.id)?.groupMembers.map(\.id) == [hall.id]
        }
        #expect(manager.device(withID: kitchen.id)?.groups == [])
        #expect(manager.members(of: group).map(\.friendlyName) == ["Hall"])
        #expect(manager.groups(containing: kitchen).isEmpty)
        #expect(manager.device(withID: hall.id)?.groups == [downstairs])
        let reported = try await rig.run("the group's update") { () async -> CastDevice? in
            for await event in later where event.kind == .didUpdate && event.device.id == group.id {
                return event.device
            }
            return nil
        }
        #expect(reported?.groupMembers.map(\.name) == ["Hall"], "the group's update carries its members")
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        try await rig.run("the session end") { await context.sessionManager.endSession() }
        manager.stopDiscovery()
    }

    @Test func aSpeakerAddedByAddressListsTheGroupsOfItsSetupDocument() async throws {
        let rig = InMemoryRig()
        let speakers = Self.speakers(rig)
        let context = rig.context(
            rig.options(),
            browser: ScriptedBrowser(),
            setupDocumentsOf: [speakers.kitchen, speakers.hall]
        )
        let hall = try await rig.run("adding Hall by address") {
            try await context.discoveryManager.addDevice(host: speakers.hall.options.address, port: rig.port)
        }
        let groupID = try #require(CastDevice.parseID(speakers.group.configuration.identity.deviceID))
        #expect(hall.friendlyName == "Hall")
        #expect(hall.groups == [CastDevice.GroupReference(id: groupID, name: "Downstairs")])
        #expect(context.discoveryManager.device(withID: hall.id)?.groups.map(\.name) == ["Downstairs"])
    }

    @Test func referencesFromTheNetworkAreChecked() {
        #expect(CastDevice.GroupReference(deviceID: "not an id", name: "x") == nil)
        let id = "ecdd1875-99fa-75be-deed-71691385bc70"
        let long = CastDevice.GroupReference(deviceID: id, name: String(repeating: "n", count: 1000))
        #expect(long?.name?.count == CastDevice.GroupReference.maximumNameLength)
        #expect(CastDevice.GroupReference(deviceID: id, name: "")?.name == nil)
        let many = (0..<100).map { CastDevice.GroupReference(id: UUID(), name: "\($0)") }
        #expect(CastDevice.GroupReference.unique(many + many).count == CastDevice.GroupReference.maximumCount)
        let payload: JSONValue = [
            "type": "CASTING_GROUPS",
            "status": [
                "groups": [
                    ["deviceId": .string(id), "name": "Downstairs"], ["deviceId": "bad", "name": "Dropped"],
                    ["uuid": .string(id.uppercased()), "name": "Again"], ["name": "No id"],
                ]
            ],
        ]
        #expect(CastSession.castingGroups(in: payload).map(\.name) == ["Downstairs"])
        #expect(CastSession.castingGroups(in: ["type": "CASTING_GROUPS"]).isEmpty)
    }
}
