import CastSenderUI
import Foundation
import Testing

@testable import castvideos

/// The speaker group's members in castvideos' stop-casting dialog.
@MainActor
@Suite struct MemberVolumeLinesTests {
    static func member(_ name: String, _ level: Double, muted: Bool = false) -> GroupVolumeModel.Member {
        GroupVolumeModel.Member(
            id: name,
            name: name,
            volume: DeviceVolumeState(
                level: level,
                isMuted: muted,
                stepInterval: 0.05,
                isFixedVolume: false,
                inputEnabled: true,
                deviceName: name
            )
        )
    }

    @Test func groupMembersGetOneAlignedLineEach() {
        let state = GroupVolumeModel.State(
            groupName: "Downstairs",
            isGroup: true,
            members: [Self.member("Kitchen", 0.4), Self.member("Hall", 0.8, muted: true)]
        )
        #expect(
            AppModel.memberVolumeLines(state) == [
                "Members (1-2: choose, 0: the group; +/- m act on the group):",
                " 1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%",
                " 2 Hall    ▮▮▮▮▮▮▮▮▯▯ 80% (muted)",
            ]
        )
        #expect(
            AppModel.memberVolumeLines(state, selected: "Hall") == [
                "Members (1-2: choose, 0: the group; +/- m act on it):",
                " 1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%",
                "▸2 Hall    ▮▮▮▮▮▮▮▮▯▯ 80% (muted)",
            ]
        )
    }

    @Test func aSingleDeviceOrNoSessionShowsNoMembers() {
        #expect(AppModel.memberVolumeLines(.unavailable).isEmpty)
        let speaker = GroupVolumeModel.State(
            groupName: "Kitchen",
            isGroup: false,
            members: [Self.member("Kitchen", 0.4)]
        )
        #expect(AppModel.memberVolumeLines(speaker).isEmpty)
    }

    @Test func controlCharactersInNamesAreRemovedAndLongNamesCut() {
        let state = GroupVolumeModel.State(
            groupName: "G",
            isGroup: true,
            members: [Self.member("Evil\u{1B}[2Jname that is far too long", 1)]
        )
        let lines = AppModel.memberVolumeLines(state)
        #expect(lines.count == 2)
        #expect(!lines[1].contains("\u{1B}"))
        #expect(lines[1].hasSuffix("▮▮▮▮▮▮▮▮▮▮ 100%"))
    }

    @Test func theChooserNamesAGroupsMembersAndAMembersGroupsSanitized() {
        func device(group: Bool, members: [String] = [], groups: [String] = []) -> DeviceChooserModel.Device {
            DeviceChooserModel.Device(
                id: UUID(),
                name: "x",
                isBusy: false,
                isGroup: group,
                members: members,
                groups: groups
            )
        }
        #expect(AppModel.groupNote(for: device(group: true)) == " (speaker group)")
        #expect(
            AppModel.groupNote(for: device(group: true, members: ["Kitchen", "Hall"]))
                == " (speaker group: Kitchen, Hall)"
        )
        #expect(AppModel.groupNote(for: device(group: false, groups: ["Downstairs"])) == " (in Downstairs)")
        #expect(AppModel.groupNote(for: device(group: false)) == "")
        let hostile = AppModel.groupNote(for: device(group: true, members: ["Evil\u{1B}]0;owned\u{07}", "Hall"]))
        #expect(!hostile.contains("\u{1B}") && !hostile.contains("\u{07}"))
        #expect(hostile.hasSuffix(", Hall)"))
    }
}
