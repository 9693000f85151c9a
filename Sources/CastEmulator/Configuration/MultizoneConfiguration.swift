public import CastCore

/// The speaker-group side of a virtual device: the members of a group, or the groups a
/// speaker belongs to.
///
/// A group is a device of its own (``DeviceProfile/speakerGroup``) whose ``members`` are
/// set; a speaker in groups lists them in ``groups``. ``SpeakerGroupHub`` keeps both sides
/// in step while the devices run.
public struct MultizoneConfiguration: Hashable, Sendable {
    /// The members of the group, in `MULTIZONE_STATUS` order; `nil` for a device that is
    /// not a group.
    public var members: [MultizoneDevice]?
    /// The groups the device belongs to (`CASTING_GROUPS`, eureka_info `multizone.groups`).
    public var groups: [SpeakerGroupReference]

    /// Creates a configuration; the default is a device that is no group and in none.
    public init(members: [MultizoneDevice]? = nil, groups: [SpeakerGroupReference] = []) {
        self.members = members
        self.groups = groups
    }
}

/// A speaker group as its members know it.
public struct SpeakerGroupReference: Hashable, Sendable {
    /// The group's friendly name.
    public var name: String
    /// The group's device id in dashed UUID form (its `ssdp_udn`).
    public var groupID: String
    /// The address of the group's leader, which serves the group's Cast channel.
    public var leaderAddress: String
    /// The port of the group's Cast channel on the leader (32xxx on hardware).
    public var castPort: Int
    /// Whether the device holding this reference is the group's leader.
    public var isLeader: Bool

    /// Creates a reference.
    public init(name: String, groupID: String, leaderAddress: String, castPort: Int, isLeader: Bool) {
        self.name = name
        self.groupID = groupID
        self.leaderAddress = leaderAddress
        self.castPort = castPort
        self.isLeader = isLeader
    }
}

/// What a device tells the owner of its speaker groups after an event
/// (``DeviceAction/multizone(_:)``).
public enum SpeakerGroupEvent: Hashable, Sendable {
    /// The device's own volume changed (level and mute as the device holds them): the groups
    /// it belongs to update their member.
    case volumeChanged(Volume)
    /// A group asks one member to take this volume (`SET_DEVICE_VOLUME` on the group, or the
    /// group's own volume scaled onto its members).
    case setMemberVolume(deviceID: String, volume: Volume)
    /// A group's playback session started (its app's session id) or ended (`nil`): its
    /// members follow it.
    case groupPlaybackChanged(sessionID: String?)
    /// A member started a session of its own, or stopped the group's: it left the playback
    /// of the group `groupId`.
    case leftGroupPlayback(groupID: String)
}
