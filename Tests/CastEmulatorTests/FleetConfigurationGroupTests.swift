import CastCore
import Testing

@testable import CastEmulator

/// `groups` in a fleet file and `--group NAME=DEV1,DEV2`.
@Suite struct FleetConfigurationGroupTests {
    static let devices = #"""
        "devices": [{"name": "Kitchen", "model": "Google Nest Mini"}, {"name": "Hall", "model": "Google Nest Hub"},
                    {"name": "TV", "model": "Chromecast"}]
        """#

    @Test func parsesGroupsAndTheirLeader() throws {
        let json =
            #"{\#(Self.devices), "groups": [{"name": "Downstairs", "members": ["Kitchen", "Hall"], "leader": "Hall", "id": "0123456789abcdef0123456789abcdef", "castPort": 32200}]}"#
        let fleet = try FleetConfiguration(json: Array(json.utf8))
        #expect(
            fleet.groups == [
                FleetConfiguration.Group(
                    name: "Downstairs",
                    members: ["Kitchen", "Hall"],
                    leader: "Hall",
                    id: "0123456789abcdef0123456789abcdef",
                    castPort: 32_200
                )
            ]
        )
        #expect(fleet.groups[0].leaderName == "Hall")
    }

    @Test(arguments: [
        (#""groups": {}"#, "groups"),
        (#""groups": [[]]"#, "groups[0]"),
        (#""groups": [{"members": ["Kitchen"]}]"#, "groups[0].name"),
        (#""groups": [{"name": "G"}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": [1]}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": []}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": ["Kitchen", "Kitchen"]}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": ["Porch"]}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": ["TV"]}]"#, "groups[0].members"),
        (#""groups": [{"name": "G", "members": ["Kitchen"], "leader": "Hall"}]"#, "groups[0].leader"),
        (#""groups": [{"name": "Kitchen", "members": ["Kitchen"]}]"#, "groups[0].name"),
        (#""groups": [{"name": "G", "members": ["Kitchen"]}, {"name": "G", "members": ["Hall"]}]"#, "groups[1].name"),
        (#""groups": [{"name": "G", "members": ["Kitchen"], "id": "xyz"}]"#, "groups[0].id"),
        (#""groups": [{"name": "G", "members": ["Kitchen"], "castPort": 70000}]"#, "groups[0].castPort"),
        (#""groups": [{"name": "G", "members": ["Kitchen"], "castPort": "32101"}]"#, "groups[0].castPort"),
        (#""groups": [{"name": "G", "members": ["Kitchen"], "colour": "red"}]"#, "groups[0].colour"),
    ])
    func rejectsBadGroupsNamingTheMember(groups: String, path: String) {
        let json = "{\(Self.devices), \(groups)}"
        #expect {
            try FleetConfiguration(json: Array(json.utf8))
        } throws: { error in
            (error as? FleetConfigurationError)?.path == path
        }
    }

    @Test func groupOptionNamesTheGroupAndItsMembers() throws {
        let group = try FleetConfiguration.group(option: "Downstairs=Kitchen, Hall")
        #expect(group == FleetConfiguration.Group(name: "Downstairs", members: ["Kitchen", "Hall"]))
        for bad in ["Downstairs", "=Kitchen", "Downstairs=", "Downstairs=Kitchen,,Hall"] {
            #expect(throws: FleetConfigurationError.self, "\(bad)") { try FleetConfiguration.group(option: bad) }
        }
    }
}
