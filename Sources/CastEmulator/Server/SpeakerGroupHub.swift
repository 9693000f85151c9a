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
    public static func memberId(of device: VirtualDevice) -> String {
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
                deviceId: memberId(of: device),
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
        let groupId = Self.memberId(of: group)
        let reference = SpeakerGroupReference(
            name: group.configuration.identity.friendlyName,
            groupId: groupId,
            leaderAddress: leader.options.address,
            castPort: group.ports?.cast ?? group.options.castPort,
            isLeader: false
        )
        state.withLock { state in
            state.groups[groupId] = Group(reference: reference, device: group, members: members.map(Self.memberId))
            state.groupOrder.append(groupId)
            state.devices[groupId] = group
            for member in members { state.devices[Self.memberId(of: member)] = member }
        }
        group.setMultizoneHandler { [weak self] event in self?.handle(event, fromGroup: groupId) }
        for member in members {
            let id = Self.memberId(of: member)
            member.setMultizoneHandler { [weak self] event in self?.handle(event, fromMember: id) }
            pushCastingGroups(to: id)
        }
    }

    /// The groups `device` belongs to now, as it reports them.
    public func groups(of device: VirtualDevice) -> [SpeakerGroupReference] {
        references(of: Self.memberId(of: device))
    }

    /// Adds `member` to `group`: the group sends `DEVICE_ADDED`, the member lists the group.
    public func add(_ member: VirtualDevice, to group: VirtualDevice) {
        let memberId = Self.memberId(of: member)
        let groupId = Self.memberId(of: group)
        let added = state.withLock { state -> Bool in
            guard var entry = state.groups[groupId], !entry.members.contains(memberId) else { return false }
            entry.members.append(memberId)
            state.groups[groupId] = entry
            state.devices[memberId] = member
            state.offline.remove(memberId)
            return true
        }
        guard added else { return }
        member.setMultizoneHandler { [weak self] event in self?.handle(event, fromMember: memberId) }
        group.multizoneUpdate(.memberChanged(Self.multizoneDevice(member)))
        pushCastingGroups(to: memberId)
    }

    /// Removes `member` from `group`: the group sends `DEVICE_REMOVED` (and
    /// `PLAYBACK_SESSION_UPDATED` while it plays), the member stops following it.
    public func remove(_ member: VirtualDevice, from group: VirtualDevice) {
        let memberId = Self.memberId(of: member)
        let groupId = Self.memberId(of: group)
        let removed = state.withLock { state -> Bool in
            guard var entry = state.groups[groupId], let index = entry.members.firstIndex(of: memberId) else {
                return false
            }
            entry.members.remove(at: index)
            state.groups[groupId] = entry
            return true
        }
        guard removed else { return }
        group.multizoneUpdate(.memberRemoved(deviceId: memberId))
        pushCastingGroups(to: memberId)
    }

    /// A member went offline (its device stopped): every group it is in sends
    /// `DEVICE_REMOVED` and leaves it out of its playback. Called by ``DeviceFleet`` when a
    /// device stops; a member that starts again comes back with ``add(_:to:)``.
    public func deviceStopped(_ device: VirtualDevice) {
        let memberId = Self.memberId(of: device)
        let groups = state.withLock { state -> [VirtualDevice] in
            state.offline.insert(memberId)
            return state.groupOrder.compactMap { id in
                guard let group = state.groups[id], group.members.contains(memberId) else { return nil }
                state.groups[id]?.members.removeAll { $0 == memberId }
                return group.device
            }
        }
        for group in groups { group.multizoneUpdate(.memberRemoved(deviceId: memberId)) }
    }

    // MARK: Events

    private func handle(_ event: SpeakerGroupEvent, fromMember memberId: String) {
        switch event {
        case .volumeChanged:
            let (groups, member) = state.withLock { state in
                (Self.groups(containing: memberId, in: state).map(\.device), state.devices[memberId])
            }
            guard let member else { return }
            let device = Self.multizoneDevice(member)
            for group in groups { group.multizoneUpdate(.memberChanged(device)) }
        case .leftGroupPlayback(let groupId):
            let group = state.withLock { $0.groups[groupId]?.device }
            group?.multizoneUpdate(.memberLeftPlayback(deviceId: memberId))
        case .setMemberVolume, .groupPlaybackChanged:
            break
        }
    }

    private func handle(_ event: SpeakerGroupEvent, fromGroup groupId: String) {
        switch event {
        case .setMemberVolume(let deviceId, let volume):
            let member = state.withLock { state -> VirtualDevice? in
                guard state.groups[groupId]?.members.contains(deviceId) == true else { return nil }
                return state.devices[deviceId]
            }
            member?.multizoneUpdate(.applyVolume(volume))
        case .groupPlaybackChanged(let sessionId):
            let members = state.withLock { state in
                (state.groups[groupId]?.members ?? []).compactMap { state.devices[$0] }
            }
            for member in members { member.multizoneUpdate(.followGroup(groupId: groupId, sessionId: sessionId)) }
        case .volumeChanged, .leftGroupPlayback:
            break
        }
    }

    private func pushCastingGroups(to memberId: String) {
        let (device, groups) = state.withLock { ($0.devices[memberId], Self.references(of: memberId, in: $0)) }
        device?.multizoneUpdate(.castingGroups(groups))
    }

    private func references(of memberId: String) -> [SpeakerGroupReference] {
        state.withLock { Self.references(of: memberId, in: $0) }
    }

    private static func references(of memberId: String, in state: State) -> [SpeakerGroupReference] {
        groups(containing: memberId, in: state).map { group in
            var reference = group.reference
            reference.isLeader = group.device.options.address == state.devices[memberId]?.options.address
            return reference
        }
    }

    private static func groups(containing memberId: String, in state: State) -> [Group] {
        state.groupOrder.compactMap { state.groups[$0] }.filter { $0.members.contains(memberId) }
    }
}
