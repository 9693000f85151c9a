import CastCore
import CastSync
import CastTime

/// Keeps speaker groups and their members in step: the explicit link between virtual
/// devices that a group is on hardware.
///
/// A group is a ``VirtualDevice`` of its own (``DeviceProfile/speakerGroup``) on a Cast port
/// of its leader. The hub carries each device's ``SpeakerGroupEvent``s to the others:
///
/// - a member's volume change reaches every group it is in (`DEVICE_UPDATED`, group volume);
/// - `SET_DEVICE_VOLUME` on a group, or the group's own volume, reaches the member(s);
/// - a group's playback session makes its members report the follower app (`531A4F84`);
///   a member that starts a session of its own leaves it (`PLAYBACK_SESSION_UPDATED`);
/// - ``add(_:to:)``, ``remove(_:from:)`` and a member going offline (``deviceStopped(_:)``)
///   give `DEVICE_ADDED` / `DEVICE_REMOVED` on the group and new `CASTING_GROUPS` on the member.
///
/// Calls into devices happen with the hub's lock released, so a device's event may come
/// back to the hub while it is carrying another.
public final class SpeakerGroupHub: Sendable {
    private struct Group {
        var reference: SpeakerGroupReference
        var device: VirtualDevice
        /// Member device ids (dashed), in member order, online or not.
        var members: [String]
    }

    private struct State {
        var groups: [String: Group] = [:]
        var groupOrder: [String] = []
        var devices: [String: VirtualDevice] = [:]
        var offline: Set<String> = []
    }

    private let state = Locked(State())

    /// Creates a hub with no groups.
    public init() {}

    /// The id a device has as a group member: its dashed UUID.
    public static func memberID(of device: VirtualDevice) -> String {
        device.configuration.identity.udn ?? device.configuration.identity.deviceID
    }

    /// Makes a group device for `members`, served on `leader`'s address at `castPort`.
    /// - Parameters:
    ///   - name: the group's friendly name.
    ///   - deviceID: 32 hexadecimal digits (random when `nil`).
    ///   - members: the member devices, whose volumes the group starts with.
    ///   - leader: the member whose address serves the group (one of `members`).
    ///   - castPort: the group's Cast port (32xxx on hardware; 0 for an ephemeral one).
    ///   - template: server options to start from (timeouts, limits); the leader's address
    ///     and `castPort` replace its address and port, and a group serves no setup or
    ///     control endpoint.
    public static func groupConfiguration(
        name: String,
        deviceID: String,
        members: [VirtualDevice],
        leader: VirtualDevice,
        castPort: Int,
        template: DeviceServerOptions? = nil
    ) -> (configuration: VirtualDeviceConfiguration, options: DeviceServerOptions) {
        let identity = DeviceIdentity(
            friendlyName: name,
            deviceID: deviceID,
            modelName: "Google Cast Group",
            capabilities: DeviceProfile.speakerGroup.capabilities
        )
        var configuration = VirtualDeviceConfiguration(
            identity: identity,
            profile: .speakerGroup,
            applications: [.defaultMediaReceiver]
        )
        // The group runs on the leader: its media reading, heartbeat, liveness and the
        // certificates it answers device authentication with are the leader's.
        configuration.deviceAuthentication = leader.configuration.deviceAuthentication
        configuration.mediaMode = leader.configuration.mediaMode
        configuration.pingInterval = leader.configuration.pingInterval
        configuration.livenessTimeout = leader.configuration.livenessTimeout
        configuration.multizone.members = members.map(Self.multizoneDevice)
        var options = template ?? DeviceServerOptions(address: leader.options.address)
        options.address = leader.options.address
        options.castPort = castPort
        options.servesSetup = false
        options.controlEndpointEnabled = false
        return (configuration, options)
    }

    /// The device as a group member now (raw volume level).
    static func multizoneDevice(_ device: VirtualDevice) -> MultizoneDevice {
        device.engineSnapshot?.ownMultizoneDevice
            ?? MultizoneDevice(
                deviceID: memberID(of: device),
                name: device.configuration.identity.friendlyName,
                capabilities: device.configuration.identity.capabilities.rawValue,
                volume: device.configuration.volume
            )
    }

    /// Links a started group device with its members.
    /// - Parameters:
    ///   - group: the group's device (its ``VirtualDeviceConfiguration/multizone`` members set).
    ///   - members: the member devices.
    ///   - leader: the member serving the group.
    public func register(group: VirtualDevice, members: [VirtualDevice], leader: VirtualDevice) {
        let groupID = Self.memberID(of: group)
        let reference = SpeakerGroupReference(
            name: group.configuration.identity.friendlyName,
            groupID: groupID,
            leaderAddress: leader.options.address,
            castPort: group.ports?.cast ?? group.options.castPort,
            isLeader: false
        )
        state.withLock { state in
            state.groups[groupID] = Group(reference: reference, device: group, members: members.map(Self.memberID))
            state.groupOrder.append(groupID)
            state.devices[groupID] = group
            for member in members { state.devices[Self.memberID(of: member)] = member }
        }
        group.setMultizoneHandler { [weak self] event in self?.handle(event, fromGroup: groupID) }
        for member in members {
            let id = Self.memberID(of: member)
            member.setMultizoneHandler { [weak self] event in self?.handle(event, fromMember: id) }
            pushCastingGroups(to: id)
        }
    }

    /// The groups `device` belongs to now, as it reports them.
    public func groups(of device: VirtualDevice) -> [SpeakerGroupReference] {
        references(of: Self.memberID(of: device))
    }

    /// Adds `member` to `group`: the group sends `DEVICE_ADDED`, the member lists the group.
    public func add(_ member: VirtualDevice, to group: VirtualDevice) {
        let memberID = Self.memberID(of: member)
        let groupID = Self.memberID(of: group)
        let added = state.withLock { state -> Bool in
            guard var entry = state.groups[groupID], !entry.members.contains(memberID) else { return false }
            entry.members.append(memberID)
            state.groups[groupID] = entry
            state.devices[memberID] = member
            state.offline.remove(memberID)
            return true
        }
        guard added else { return }
        member.setMultizoneHandler { [weak self] event in self?.handle(event, fromMember: memberID) }
        group.multizoneUpdate(.memberChanged(Self.multizoneDevice(member)))
        pushCastingGroups(to: memberID)
    }

    /// Removes `member` from `group`: the group sends `DEVICE_REMOVED` (and
    /// `PLAYBACK_SESSION_UPDATED` while it plays), the member stops following it.
    public func remove(_ member: VirtualDevice, from group: VirtualDevice) {
        let memberID = Self.memberID(of: member)
        let groupID = Self.memberID(of: group)
        let removed = state.withLock { state -> Bool in
            guard var entry = state.groups[groupID], let index = entry.members.firstIndex(of: memberID) else {
                return false
            }
            entry.members.remove(at: index)
            state.groups[groupID] = entry
            return true
        }
        guard removed else { return }
        group.multizoneUpdate(.memberRemoved(deviceID: memberID))
        pushCastingGroups(to: memberID)
    }

    /// A member went offline (its device stopped): every group it is in sends
    /// `DEVICE_REMOVED` and leaves it out of its playback. Called by ``DeviceFleet`` when a
    /// device stops; a member that starts again comes back with ``add(_:to:)``.
    public func deviceStopped(_ device: VirtualDevice) {
        let memberID = Self.memberID(of: device)
        let groups = state.withLock { state -> [VirtualDevice] in
            state.offline.insert(memberID)
            return state.groupOrder.compactMap { id in
                guard let group = state.groups[id], group.members.contains(memberID) else { return nil }
                state.groups[id]?.members.removeAll { $0 == memberID }
                return group.device
            }
        }
        for group in groups { group.multizoneUpdate(.memberRemoved(deviceID: memberID)) }
    }

    // MARK: Events

    private func handle(_ event: SpeakerGroupEvent, fromMember memberID: String) {
        switch event {
        case .volumeChanged:
            let (groups, member) = state.withLock { state in
                (Self.groups(containing: memberID, in: state).map(\.device), state.devices[memberID])
            }
            guard let member else { return }
            let device = Self.multizoneDevice(member)
            for group in groups { group.multizoneUpdate(.memberChanged(device)) }
        case .leftGroupPlayback(let groupID):
            let group = state.withLock { $0.groups[groupID]?.device }
            group?.multizoneUpdate(.memberLeftPlayback(deviceID: memberID))
        case .setMemberVolume, .groupPlaybackChanged:
            break
        }
    }

    private func handle(_ event: SpeakerGroupEvent, fromGroup groupID: String) {
        switch event {
        case .setMemberVolume(let deviceID, let volume):
            let member = state.withLock { state -> VirtualDevice? in
                guard state.groups[groupID]?.members.contains(deviceID) == true else { return nil }
                return state.devices[deviceID]
            }
            member?.multizoneUpdate(.applyVolume(volume))
        case .groupPlaybackChanged(let sessionID):
            let members = state.withLock { state in
                (state.groups[groupID]?.members ?? []).compactMap { state.devices[$0] }
            }
            for member in members { member.multizoneUpdate(.followGroup(groupID: groupID, sessionID: sessionID)) }
        case .volumeChanged, .leftGroupPlayback:
            break
        }
    }

    private func pushCastingGroups(to memberID: String) {
        let (device, groups) = state.withLock { ($0.devices[memberID], Self.references(of: memberID, in: $0)) }
        device?.multizoneUpdate(.castingGroups(groups))
    }

    private func references(of memberID: String) -> [SpeakerGroupReference] {
        state.withLock { Self.references(of: memberID, in: $0) }
    }

    private static func references(of memberID: String, in state: State) -> [SpeakerGroupReference] {
        groups(containing: memberID, in: state).map { group in
            var reference = group.reference
            reference.isLeader = group.device.options.address == state.devices[memberID]?.options.address
            return reference
        }
    }

    private static func groups(containing memberID: String, in state: State) -> [Group] {
        state.groupOrder.compactMap { state.groups[$0] }.filter { $0.members.contains(memberID) }
    }
}
