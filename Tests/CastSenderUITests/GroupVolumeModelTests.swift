import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// ``GroupVolumeModel`` against a virtual speaker group in memory (``InMemorySpeakerGroup``:
/// two speakers and the group on the leader's address): what it lists comes from the group's
/// `MULTIZONE_STATUS` and `DEVICE_*`, what it sets is checked on the member's own engine.
@Suite struct GroupVolumeModelTests {
    static func speakers(_ rig: InMemoryRig) -> InMemorySpeakerGroup {
        InMemorySpeakerGroup(rig: rig, kitchenModel: "Google Nest Mini", hallModel: "Google Nest Mini")
    }

    @Test func listsMembersAndSetsOneThroughTheGroup() async throws {
        let rig = InMemoryRig()
        let speakers = Self.speakers(rig)
        let context = rig.context()
        let model = GroupVolumeModel(context: context)
        let updates = model.updates()
        #expect(model.state == .unavailable, "no session: no members")
        #expect(model.setVolume(0.5, forMember: "anything") == nil)

        _ = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: speakers.described(speakers.group))
        }
        try await rig.run(until: "the two members", watching: updates) { model.state.members.count == 2 }
        var state = model.state
        #expect(state.groupName == "Downstairs")
        #expect(state.isGroup)
        #expect(state.members.map(\.name) == ["Kitchen", "Hall"])
        #expect(state.members.map(\.volume.percent) == [40, 80])
        #expect(state.members.allSatisfy { $0.volume.inputEnabled && !$0.volume.isMuted })
        let hall = state.members[1].id

        // The slider of one member: shown at once, applied on that speaker only.
        let request = try #require(model.setVolume(0.25, forMember: hall))
        #expect(model.state.members[1].volume.percent == 25)
        try await rig.run("Hall's volume") { try await request.result }
        try await rig.run(until: "Hall at 0.25") { speakers.hall.engineSnapshot?.deviceVolume.level == 0.25 }
        #expect(speakers.kitchen.engineSnapshot?.deviceVolume.level == 0.4)

        // Mute through a member's own DeviceVolumeController.
        let kitchen = DeviceVolumeController(control: model.control(forMember: state.members[0].id))
        #expect(kitchen.state.percent == 40)
        let mute = try #require(kitchen.toggleMuted())
        try await rig.run("Kitchen's mute") { try await mute.result }
        try await rig.run(until: "Kitchen muted") { speakers.kitchen.engineSnapshot?.deviceVolume.muted == true }
        try await rig.run(until: "the model shows Kitchen muted", watching: updates) {
            model.state.members[0].volume.isMuted
        }

        // Steps of 0.05, and unknown members or non-numbers are refused.
        let up = try #require(model.volumeUp(forMember: hall))
        try await rig.run("Hall's step up") { try await up.result }
        try await rig.run(until: "Hall at 0.3") { speakers.hall.engineSnapshot?.deviceVolume.level == 0.3 }
        #expect(model.setVolume(.nan, forMember: hall) == nil)
        #expect(model.setMuted(true, forMember: "no-such-member") == nil)

        // A volume changed on the speaker itself shows through the group's DEVICE_UPDATED.
        speakers.kitchen.multizoneUpdate(.applyVolume(Volume(level: 0.7, muted: false)))
        try await rig.run(until: "the model shows Kitchen at 70 %", watching: updates) {
            model.state.members[0].volume.percent == 70
        }
        state = model.state
        #expect(!state.members[0].volume.isMuted)

        // A member removed from the group leaves the list.
        speakers.remove(speakers.hall)
        try await rig.run(until: "the model without Hall", watching: updates) {
            model.state.members.map(\.name) == ["Kitchen"]
        }

        try await rig.run("the session end") { await context.sessionManager.endSession(stopCasting: true) }
        try await rig.run(until: "the model without a session", watching: updates) { model.state == .unavailable }
    }

    @Test func chooserListsTheMembersOfTheConnectedGroup() async throws {
        let rig = InMemoryRig()
        let speakers = Self.speakers(rig)
        // The leader's setup document lists the group at its port: the address names a group.
        let context = rig.context(setupDocumentsOf: [speakers.kitchen, speakers.hall])
        let chooser = DeviceChooserModel(context: context, searchTimeout: .seconds(3600))
        let updates = chooser.updates()
        let group = try await rig.run("adding the group by address") {
            try await context.discoveryManager.addDevice(
                host: speakers.group.options.address,
                port: InMemorySpeakerGroup.groupPort
            )
        }
        #expect(group.isGroup)
        try await rig.run(until: "the chooser lists the group", watching: updates) {
            chooser.state.devices.map(\.name) == ["Downstairs"]
        }
        #expect(chooser.state.devices.first?.isGroup == true)
        #expect(chooser.state.devices.first?.members == [], "no session: members not known")

        try await rig.run("selecting the group") { try await chooser.select(group.id) }
        try await rig.run(until: "the chooser lists the members", watching: updates) {
            chooser.state.devices.first?.members == ["Kitchen", "Hall"]
        }
        speakers.remove(speakers.kitchen)
        try await rig.run(until: "the chooser without Kitchen", watching: updates) {
            chooser.state.devices.first?.members == ["Hall"]
        }

        // Discovery keeps what the group last reported once the session is over.
        try await rig.run("the session end") { await context.sessionManager.endSession(stopCasting: true) }
        #expect(context.sessionManager.currentSession == nil)
        #expect(chooser.state.devices.first?.members == ["Hall"])
        #expect(context.discoveryManager.device(withID: group.id)?.groupMembers.map(\.name) == ["Hall"])
    }
}
