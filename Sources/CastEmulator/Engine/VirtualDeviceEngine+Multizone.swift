public import CastCore
public import CastTime

/// What a device knows of its speaker groups while it runs.
struct MultizoneState: Sendable {
    /// The group's members (raw volume levels); `nil` when the device is not a group.
    var members: [MultizoneDevice]?
    /// The groups the device belongs to.
    var groups: [SpeakerGroupReference]
    /// The members taking part in the group's playback session, in member order.
    var playing: [String] = []
    /// The group session this member plays in, if any.
    var follower: GroupFollower?

    init(_ configuration: MultizoneConfiguration) {
        self.members = configuration.members
        self.groups = configuration.groups
    }

    var isGroup: Bool { members != nil }
}

/// A member playing in its group's session: it reports the multizone follower app, as the
/// captured members do (`531A4F84`, `universalAppId` `CC1AD845`, no namespaces, no transport).
struct GroupFollower: Hashable, Sendable {
    /// The group's device id.
    var groupID: String
    /// The group's app session.
    var sessionID: String

    /// The app id members of a playing group report.
    static let appID = "531A4F84"

    var status: ReceiverApplication {
        ReceiverApplication(
            appID: Self.appID,
            appType: .web,
            universalAppID: ReceiverAppDefinition.defaultMediaReceiver.appID,
            displayName: ReceiverAppDefinition.defaultMediaReceiver.displayName,
            iconURL: "",
            isIdleScreen: false,
            launchedFromCloud: false,
            sessionID: sessionID,
            statusText: ReceiverAppDefinition.defaultMediaReceiver.displayName,
            senderConnected: true
        )
    }
}

/// A change in a device's speaker groups, which ``SpeakerGroupHub`` feeds to the engines of
/// the group and its members (``VirtualDeviceEngine/multizoneUpdate(_:at:)``).
public enum MultizoneUpdate: Hashable, Sendable {
    /// To a group: a member joined, or its name or volume changed.
    case memberChanged(MultizoneDevice)
    /// To a group: a member left the group (removed, or gone offline).
    case memberRemoved(deviceID: String)
    /// To a group: a member left the group's playback session.
    case memberLeftPlayback(deviceID: String)
    /// To a member: take this volume, as the group asked.
    case applyVolume(Volume)
    /// To a member: follow the playback session `sessionId` of group `groupId`, or stop
    /// following it (`nil`).
    case followGroup(groupID: String, sessionID: String?)
    /// To a member: the groups it belongs to now.
    case castingGroups([SpeakerGroupReference])
}

/// The multizone namespace (`urn:x-cast:com.google.cast.multizone` on `receiver-0`).
///
/// A speaker in no group lists itself in `MULTIZONE_STATUS`, as real speakers do; a group
/// lists its members, and members list the groups they are in (`CASTING_GROUPS`).
/// `SET_DEVICE_VOLUME` sets the device's own volume, or, on a group, one member's.
extension VirtualDeviceEngine {
    mutating func handleMultizone(_ text: String, from sender: SenderEndpoint) -> [DeviceAction] {
        guard let request = try? JSONValue(parsing: text), request.objectValue != nil,
            let type = request["type"]?.stringValue
        else {
            return [multizoneLog("malformed multizone request", sender: sender)]
        }
        // A request id that is not a whole number is answered as 0, never trusted.
        let requestID = request["requestId"]?.intValue ?? 0
        switch CastMessageType(rawValue: type) {
        case .getStatus:
            return [
                send(
                    MultizoneStatusMessage(requestID: requestID, status: multizoneStatus),
                    from: Self.platformID,
                    to: sender,
                    namespace: .multizone
                )
            ]
        case .getCastingGroups:
            let reply: JSONValue = [
                "type": .string(CastMessageType.castingGroups.rawValue),
                "requestId": .integer(requestID),
                "status": ["groups": .array(multizone.groups.map(Self.castingGroupValue))],
            ]
            return [multizoneSend(reply, to: sender)]
        case .setDeviceVolume:
            return setDeviceVolume(request, from: sender)
        default:
            return [multizoneLog("unsupported multizone request", sender: sender)]
        }
    }

    /// `MULTIZONE_STATUS` as `GET_STATUS` reports it now: a group's members, or the device as
    /// the only member, with the keys real devices send (float32 volume levels).
    public var multizoneStatus: MultizoneStatus {
        guard let members = multizone.members else {
            return MultizoneStatus(devices: [Self.reported(ownMultizoneDevice)], isMultichannel: false)
        }
        var extra: [String: JSONValue] = [:]
        if let session = playbackSessionValue { extra["playbackSession"] = session }
        return MultizoneStatus(
            devices: members.map(Self.reported),
            isMultichannel: false,
            unknownMembers: extra
        )
    }

    /// The members of the group (raw volume levels), or `nil` when the device is not a group.
    public var groupMembers: [MultizoneDevice]? { multizone.members }

    /// The groups the device belongs to.
    public var castingGroups: [SpeakerGroupReference] { multizone.groups }

    /// The group playback this member follows: the group's id and session id.
    public var followedGroupSession: (groupID: String, sessionID: String)? {
        multizone.follower.map { ($0.groupID, $0.sessionID) }
    }

    /// The members taking part in the group's playback session (none while it plays nothing).
    public var groupPlaybackMembers: [String] { multizone.playing }

    /// The device as a member of a group, with its raw volume level.
    public var ownMultizoneDevice: MultizoneDevice {
        let identity = configuration.identity
        return MultizoneDevice(
            deviceID: identity.udn ?? identity.deviceID,
            name: identity.friendlyName,
            capabilities: identity.capabilities.rawValue,
            volume: deviceVolume
        )
    }

    /// A change from the device's groups: see ``MultizoneUpdate``. Updates that do not fit
    /// the device (a member change sent to a device that is no group) are logged and ignored.
    public mutating func multizoneUpdate(_ update: MultizoneUpdate, at now: DeviceInstant) -> [DeviceAction] {
        var actions = begin(at: now)
        switch update {
        case .memberChanged(let device):
            guard var members = multizone.members else { return actions + [notAGroup()] }
            if let index = members.firstIndex(where: { $0.deviceID == device.deviceID }) {
                guard members[index] != device else { return actions }
                members[index] = device
                multizone.members = members
                actions += multizoneBroadcast(deviceMessage(.deviceUpdated, device))
            } else {
                members.append(device)
                multizone.members = members
                actions += multizoneBroadcast(deviceMessage(.deviceAdded, device))
            }
            actions += groupVolumeUpdate()
        case .memberRemoved(let deviceID):
            guard var members = multizone.members else { return actions + [notAGroup()] }
            guard let index = members.firstIndex(where: { $0.deviceID == deviceID }) else { return actions }
            members.remove(at: index)
            multizone.members = members
            actions += multizoneBroadcast([
                "type": .string(CastMessageType.deviceRemoved.rawValue), "requestId": 0, "deviceId": .string(deviceID),
            ])
            if multizone.playing.contains(deviceID) {
                multizone.playing.removeAll { $0 == deviceID }
                actions += playbackSessionUpdated()
            }
            actions += groupVolumeUpdate()
        case .memberLeftPlayback(let deviceID):
            guard multizone.playing.contains(deviceID) else { return actions }
            multizone.playing.removeAll { $0 == deviceID }
            actions += playbackSessionUpdated()
        case .applyVolume(let volume):
            guard configuration.volumeControlType != .fixed else {
                return actions + [.log(DeviceLogEntry(level: .info, message: "volume is fixed: group volume ignored"))]
            }
            actions += applyOwnVolume(volume)
        case .followGroup(let groupID, let sessionID):
            let before = runningApplication
            if let sessionID {
                // A member busy with a session of its own stays out of the group's playback.
                guard application?.definition.isIdleScreen ?? true else {
                    return actions + [.multizone(.leftGroupPlayback(groupID: groupID))]
                }
                multizone.follower = GroupFollower(groupID: groupID, sessionID: sessionID)
            } else {
                guard multizone.follower?.groupID == groupID else { return actions }
                multizone.follower = nil
            }
            guard runningApplication != before else { return actions }
            actions += receiverStatusUpdate(requestID: 0, requester: nil) + [.appsChanged, .receiverStatusChanged]
        case .castingGroups(let groups):
            multizone.groups = groups
            if let follower = multizone.follower, !groups.contains(where: { $0.groupID == follower.groupID }) {
                multizone.follower = nil
                actions += receiverStatusUpdate(requestID: 0, requester: nil) + [.appsChanged, .receiverStatusChanged]
            }
        }
        return actions
    }

    // MARK: Volume

    /// `SET_DEVICE_VOLUME`: the device id must be the device's own or, on a group, one of its
    /// members'; `volume.level` must be a finite number in 0...1 and `volume.muted` a Boolean.
    /// Anything else is refused whole and logged.
    private mutating func setDeviceVolume(_ request: JSONValue, from sender: SenderEndpoint) -> [DeviceAction] {
        let identity = configuration.identity
        guard let deviceID = request["deviceId"]?.stringValue else {
            return [multizoneLog("SET_DEVICE_VOLUME without a device id", sender: sender)]
        }
        let memberIndex = multizone.members?.firstIndex { $0.deviceID == deviceID }
        let isSelf = deviceID == identity.udn || deviceID == identity.deviceID
        guard memberIndex != nil || (isSelf && !multizone.isGroup) else {
            return [multizoneLog("SET_DEVICE_VOLUME for an unknown device", sender: sender)]
        }
        guard let volume = request["volume"], volume.objectValue != nil else {
            return [multizoneLog("SET_DEVICE_VOLUME without a volume", sender: sender)]
        }
        let levelValue = volume["level"]
        let mutedValue = volume["muted"]
        let level = levelValue?.doubleValue
        let muted = mutedValue?.boolValue
        let levelValid = levelValue == nil || (level.map { $0.isFinite && (0...1).contains($0) } ?? false)
        let mutedValid = mutedValue == nil || muted != nil
        guard levelValid, mutedValid, level != nil || muted != nil else {
            return [multizoneLog("SET_DEVICE_VOLUME with an invalid volume", sender: sender)]
        }
        if let memberIndex, var members = multizone.members {
            var member = members[memberIndex]
            var wanted = member.volume ?? Volume(level: 0, muted: false)
            if let level { wanted.level = level }
            if let muted { wanted.muted = muted }
            guard wanted != member.volume else { return [] }
            member.volume = wanted
            members[memberIndex] = member
            multizone.members = members
            return multizoneBroadcast(deviceMessage(.deviceUpdated, member)) + groupVolumeUpdate() + [
                .multizone(.setMemberVolume(deviceID: deviceID, volume: wanted))
            ]
        }
        guard configuration.volumeControlType != .fixed else {
            return [multizoneLog("volume is fixed: SET_DEVICE_VOLUME ignored", sender: sender)]
        }
        var wanted = deviceVolume
        if let level { wanted.level = level }
        if let muted { wanted.muted = muted }
        return applyOwnVolume(wanted)
    }

    /// Takes `volume` as the device's own: `DEVICE_UPDATED` on the multizone namespace and
    /// `RECEIVER_STATUS` to every sender on `receiver-0`, and the change for the groups.
    private mutating func applyOwnVolume(_ volume: Volume) -> [DeviceAction] {
        let before = deviceVolume
        if let level = volume.level, level.isFinite { deviceVolume.level = min(max(level, 0), 1) }
        if let muted = volume.muted { deviceVolume.muted = muted }
        guard deviceVolume != before else { return [] }
        return multizoneBroadcast(deviceMessage(.deviceUpdated, ownMultizoneDevice))
            + receiverStatusUpdate(requestID: 0, requester: nil) + [
                .receiverStatusChanged, .multizone(.volumeChanged(deviceVolume)),
            ]
    }

    /// `SET_VOLUME` on a group: a level scales every member's level by the same factor (the
    /// ratio of the new group level to the old, the members' mean; each capped at 1), as a
    /// group's volume does on hardware; mute mutes or unmutes every member.
    mutating func setGroupVolume(_ volume: Volume, requestID: Int, from sender: SenderEndpoint) -> [DeviceAction] {
        guard var members = multizone.members else { return [] }
        let levels = members.map { $0.volume?.level ?? 0 }
        let mean = levels.isEmpty ? 0 : levels.reduce(0, +) / Double(levels.count)
        var actions: [DeviceAction] = []
        for index in members.indices {
            let old = members[index].volume ?? Volume(level: 0, muted: false)
            var new = old
            if let level = volume.level, level.isFinite {
                let target = min(max(level, 0), 1)
                new.level = mean > 0 ? min(1, (old.level ?? 0) * target / mean) : target
            }
            if let muted = volume.muted { new.muted = muted }
            guard new != old else { continue }
            members[index].volume = new
            actions += multizoneBroadcast(deviceMessage(.deviceUpdated, members[index]))
            actions.append(.multizone(.setMemberVolume(deviceID: members[index].deviceID, volume: new)))
        }
        multizone.members = members
        let before = deviceVolume
        recomputeGroupVolume()
        if deviceVolume != before {
            actions += receiverStatusUpdate(requestID: requestID, requester: sender) + [.receiverStatusChanged]
        } else {
            actions.append(receiverStatusReply(requestID, to: sender))
        }
        return actions
    }

    /// A group's volume: the mean of its members' levels, muted when every member is.
    mutating func recomputeGroupVolume() {
        guard let members = multizone.members, !members.isEmpty else { return }
        let levels = members.map { $0.volume?.level ?? 0 }
        deviceVolume.level = levels.reduce(0, +) / Double(levels.count)
        deviceVolume.muted = members.allSatisfy { $0.volume?.muted ?? false }
    }

    private mutating func groupVolumeUpdate() -> [DeviceAction] {
        let before = deviceVolume
        recomputeGroupVolume()
        guard deviceVolume != before else { return [] }
        return receiverStatusUpdate(requestID: 0, requester: nil) + [.receiverStatusChanged]
    }

    // MARK: Group playback

    /// The session id of the app a group plays (any app but the idle screen), or `nil`.
    var groupPlaybackSession: String? {
        guard multizone.isGroup, let application, !application.definition.isIdleScreen else { return nil }
        return application.sessionID
    }

    /// After an event: when the group's playback session started, changed or ended, every
    /// member is in (or out of) it and senders get `PLAYBACK_SESSION_UPDATED`.
    mutating func groupPlaybackUpdate(since before: String?) -> [DeviceAction] {
        let session = groupPlaybackSession
        guard session != before else { return [] }
        multizone.playing = session == nil ? [] : (multizone.members ?? []).map(\.deviceID)
        return [.multizone(.groupPlaybackChanged(sessionID: session))] + playbackSessionUpdated()
    }

    /// A member that starts a session of its own leaves its group's playback.
    mutating func leaveGroupPlayback() -> [DeviceAction] {
        guard let follower = multizone.follower else { return [] }
        multizone.follower = nil
        return [.multizone(.leftGroupPlayback(groupID: follower.groupID))]
    }

    /// `playbackSession` of a playing group: the app, its session and the members playing.
    private var playbackSessionValue: JSONValue? {
        guard let session = groupPlaybackSession, let application else { return nil }
        return [
            "appId": .string(application.reportedAppID),
            "sessionId": .string(session),
            "deviceIds": .array(multizone.playing.map { .string($0) }),
        ]
    }

    private func playbackSessionUpdated() -> [DeviceAction] {
        var payload: JSONValue = ["type": .string(CastMessageType.playbackSessionUpdated.rawValue), "requestId": 0]
        payload["playbackSession"] = playbackSessionValue ?? .null
        return multizoneBroadcast(payload)
    }

    // MARK: Messages

    /// A member as `MULTIZONE_STATUS` and `DEVICE_*` carry it: float32 levels.
    private static func reported(_ device: MultizoneDevice) -> MultizoneDevice {
        var device = device
        if let level = device.volume?.level { device.volume?.level = DeviceProfile.float32(level) }
        return device
    }

    private func deviceMessage(_ type: CastMessageType, _ device: MultizoneDevice) -> JSONValue {
        let device = Self.reported(device)
        var volume: [String: JSONValue] = [:]
        if let level = device.volume?.level { volume["level"] = .double(level) }
        if let muted = device.volume?.muted { volume["muted"] = .bool(muted) }
        return [
            "type": .string(type.rawValue),
            "requestId": 0,
            "device": [
                "deviceId": .string(device.deviceID),
                "name": .string(device.name ?? ""),
                "capabilities": .integer(device.capabilities ?? 0),
                "volume": .object(volume),
            ],
        ]
    }

    private static func castingGroupValue(_ group: SpeakerGroupReference) -> JSONValue {
        ["deviceId": .string(group.groupID), "name": .string(group.name)]
    }

    private func multizoneBroadcast(_ payload: JSONValue) -> [DeviceAction] {
        var actions: [DeviceAction] = []
        for id in connections.keys.sorted() {
            for senderID in connections[id]?.senders(connectedTo: Self.platformID) ?? [] {
                actions.append(multizoneSend(payload, to: SenderEndpoint(connection: id, senderID: senderID)))
            }
        }
        return actions
    }

    private func multizoneSend(_ payload: JSONValue, to sender: SenderEndpoint) -> DeviceAction {
        .send(
            CastMessage(
                sourceID: Self.platformID,
                destinationID: sender.senderID,
                namespace: .multizone,
                text: payload.description
            ),
            to: sender.connection
        )
    }

    private func notAGroup() -> DeviceAction {
        .log(DeviceLogEntry(level: .warning, message: "member update for a device that is no group"))
    }

    private func multizoneLog(_ message: String, sender: SenderEndpoint) -> DeviceAction {
        .log(DeviceLogEntry(level: .warning, message: message, metadata: ["cast.source-id": sender.senderID]))
    }
}
