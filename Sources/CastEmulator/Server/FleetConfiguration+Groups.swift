import CastCore
import Foundation

extension FleetConfiguration {
    /// A speaker group of the fleet: a device of its own on a Cast port of its leader.
    public struct Group: Sendable, Equatable {
        /// The group's friendly name.
        public var name: String
        /// The friendly names of its members, in `MULTIZONE_STATUS` order.
        public var members: [String]
        /// The friendly name of the member whose address serves the group; the first member
        /// when `nil`.
        public var leader: String?
        /// The group's device id, 32 hexadecimal digits; random when `nil`.
        public var id: String?
        /// The group's Cast port on the leader; `32101 + index` when `nil` (real leaders
        /// serve groups on 32xxx), 0 for an ephemeral port.
        public var castPort: Int?

        /// Creates a group entry.
        public init(name: String, members: [String], leader: String? = nil, id: String? = nil, castPort: Int? = nil) {
            self.name = name
            self.members = members
            self.leader = leader
            self.id = id
            self.castPort = castPort
        }

        /// The member serving the group.
        public var leaderName: String { leader ?? members.first ?? "" }
    }

    /// `NAME=DEV1,DEV2` (the `--group` option): a group of the named devices, led by the first.
    /// - Throws: ``FleetConfigurationError`` when the text has no name or no member.
    public static func group(option text: String) throws(FleetConfigurationError) -> Group {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let members =
            parts.count == 2
            ? parts[1].split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            } : []
        guard parts.count == 2, !parts[0].isEmpty, !members.isEmpty, !members.contains(where: \.isEmpty) else {
            throw FleetConfigurationError(
                code: .invalidValue,
                path: "--group",
                detail: "\"\(text)\" is not NAME=DEVICE,DEVICE,…"
            )
        }
        return Group(name: String(parts[0]), members: members)
    }

    /// Checks ``groups`` against ``devices``: every member is a device of the fleet whose
    /// profile can join groups (speakers, displays), listed once; the leader is a member;
    /// group names are unique and no device's.
    /// - Throws: ``FleetConfigurationError`` naming the group member at fault.
    public func validateGroups(path: String = "groups") throws(FleetConfigurationError) {
        let names = Set(devices.map(\.configuration.identity.friendlyName))
        var groupNames: Set<String> = []
        for (index, group) in groups.enumerated() {
            let at = "\(path)[\(index)]"
            guard !group.name.isEmpty, !names.contains(group.name), groupNames.insert(group.name).inserted else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(at).name",
                    detail: "must be a non-empty name no device or other group has"
                )
            }
            guard !group.members.isEmpty, Set(group.members).count == group.members.count else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(at).members",
                    detail: "must list one or more devices, each once"
                )
            }
            for member in group.members {
                guard let device = devices.first(where: { $0.configuration.identity.friendlyName == member }) else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(at).members",
                        detail: "\"\(member)\" is no device of the fleet"
                    )
                }
                guard device.configuration.profile.supportsMultizone else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(at).members",
                        detail: "\"\(member)\" (\(device.configuration.profile.kind)) cannot join speaker groups: "
                            + "only speakers and displays can"
                    )
                }
            }
            guard group.members.contains(group.leaderName) else {
                throw FleetConfigurationError(code: .invalidValue, path: "\(at).leader", detail: "must be a member")
            }
            if let id = group.id {
                let hex = id.filter { $0 != "-" }
                guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(at).id",
                        detail: "must be 32 hexadecimal digits (dashes allowed)"
                    )
                }
            }
            if let port = group.castPort, !(0...65_535).contains(port) {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(at).castPort",
                    detail: "must be a port from 0 to 65535"
                )
            }
        }
    }

    static let groupKeys: Set<String> = ["name", "members", "leader", "id", "castPort"]

    /// Parses the `groups` member.
    static func groups(_ value: JSONValue?) throws(FleetConfigurationError) -> [Group] {
        guard let value else { return [] }
        guard let list = value.arrayValue else {
            throw FleetConfigurationError(code: .invalidValue, path: "groups", detail: "must be an array of groups")
        }
        var groups: [Group] = []
        for (index, entry) in list.enumerated() {
            let path = "groups[\(index)]"
            guard let object = entry.objectValue else {
                throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be a JSON object")
            }
            if let unknown = object.keys.sorted().first(where: { !groupKeys.contains($0) }) {
                throw FleetConfigurationError(
                    code: .unknownMember,
                    path: "\(path).\(unknown)",
                    detail: "unknown member"
                )
            }
            guard let name = object["name"]?.stringValue else {
                throw FleetConfigurationError(code: .missingValue, path: "\(path).name", detail: "a name is required")
            }
            guard let items = object["members"]?.arrayValue else {
                throw FleetConfigurationError(
                    code: .missingValue,
                    path: "\(path).members",
                    detail: "a list of device names is required"
                )
            }
            let members = items.compactMap(\.stringValue)
            guard members.count == items.count else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).members",
                    detail: "must be an array of device names"
                )
            }
            func string(_ key: String) throws(FleetConfigurationError) -> String? {
                guard let value = object[key] else { return nil }
                guard let text = value.stringValue else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(path).\(key)",
                        detail: "must be a string"
                    )
                }
                return text
            }
            var castPort: Int?
            if let port = object["castPort"] {
                guard let number = port.intValue else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(path).castPort",
                        detail: "must be a port from 0 to 65535"
                    )
                }
                castPort = number
            }
            groups.append(
                Group(
                    name: name,
                    members: members,
                    leader: try string("leader"),
                    id: try string("id"),
                    castPort: castPort
                )
            )
        }
        return groups
    }
}
