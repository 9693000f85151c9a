import CastCore
public import CastSender
import CastSync
public import Observation

/// Per-member volume of a speaker group (the `GCKUIDeviceVolumeController` role for each
/// member): the members of the group the current session is connected to, each with its
/// level and mute, set one at a time through `CastSession.setDeviceVolume(_:for:)` and
/// `CastSession.setDeviceMuted(_:for:)`.
///
/// The members come from the session's `CastSession.multizoneStatus` and follow its
/// `CastSession.multizoneEvents()` (a member added, updated, removed). A level set here
/// shows at once and stays until the group reports that member again (`DEVICE_UPDATED`).
///
/// ```swift
/// let group = GroupVolumeModel(context: context)
/// for await state in group.updates() {
///     for member in state.members { draw(member.name, member.volume.percent, member.volume.isMuted) }
/// }
/// group.setVolume(0.3, forMember: kitchen.id)
/// let slider = DeviceVolumeController(control: group.control(forMember: kitchen.id))
/// ```
public final class GroupVolumeModel: Observable, Sendable {
    /// Members' volume step for ``volumeUp(forMember:)`` and ``volumeDown(forMember:)``:
    /// `MULTIZONE_STATUS` carries no step interval, so speakers' usual 0.05.
    public static let memberStepInterval = 0.05

    /// One member as the model shows it.
    public struct Member: Sendable, Hashable, Identifiable {
        /// The member's device id.
        public var id: String
        /// The member's name (its id when the group reports none).
        public var name: String
        /// The member's volume; input is enabled while the session is connected.
        public var volume: DeviceVolumeState

        /// Creates a member.
        public init(id: String, name: String, volume: DeviceVolumeState) {
            self.id = id
            self.name = name
            self.volume = volume
        }
    }

    /// What the model shows.
    public struct State: Sendable, Hashable {
        /// The group's name, when a session is connected.
        public var groupName: String?
        /// Whether the session's device is a speaker group (a speaker lists only itself).
        public var isGroup: Bool
        /// The members, in the order the group reports them.
        public var members: [Member]

        /// Creates a state.
        public init(groupName: String?, isGroup: Bool, members: [Member]) {
            self.groupName = groupName
            self.isGroup = isGroup
            self.members = members
        }

        /// No session: no members.
        public static let unavailable = State(groupName: nil, isGroup: false, members: [])
    }

    private struct Followed {
        var session: CastSession?
        var task: Task<Void, Never>?
    }

    private let manager: SessionManager
    private let logger: CastLogger
    private let pending = Locked<[String: Volume]>([:])
    private let followed = Locked(Followed())
    private let last = Locked(State.unavailable)
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the model for the group of `context`'s current session.
    public init(context: CastContext) {
        manager = context.sessionManager
        logger = context.logger
        last.withLock { $0 = Self.state(of: context.sessionManager.currentSession, pending: [:]) }
        let events = manager.events()
        follow(manager.currentSession)
        tasks.run { [weak self] in
            for await _ in events {
                guard let self else { return }
                self.follow(self.manager.currentSession)
                self.refresh()
            }
        }
        broadcaster.bind(self, \.state)
    }

    deinit {
        followed.withLock { $0.task?.cancel() }
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return Self.state(of: connected, pending: pending.withLock { $0 })
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Publishes the state when it changed.
    public func refresh() {
        let next = state
        let changed = last.withLock { last -> Bool in
            defer { last = next }
            return last != next
        }
        if changed { broadcaster.publish(next) }
    }

    /// Sets one member's level, clamped to [0, 1].
    /// - Returns: the request, or `nil` when no session is connected, `level` is not a
    ///   number, or the group has no such member.
    @discardableResult
    public func setVolume(_ level: Double, forMember id: String) -> CastRequest? {
        guard level.isFinite, let (session, member) = member(id) else { return nil }
        let level = min(max(level, 0), 1)
        logger.log(
            .debug,
            .ui,
            "member volume slider moved",
            metadata: ["cast.device-id": id, "cast.level": "\(level)"]
        )
        pending.withLock { pending in
            var volume = pending[id] ?? member.volume ?? Volume(level: 0, muted: false)
            volume.level = level
            pending[id] = volume
        }
        return sent(session.setDeviceVolume(level, for: member), member: id)
    }

    /// Mutes or unmutes one member.
    /// - Returns: the request, or `nil` when no session is connected or the group has no
    ///   such member.
    @discardableResult
    public func setMuted(_ muted: Bool, forMember id: String) -> CastRequest? {
        guard let (session, member) = member(id) else { return nil }
        logger.log(.debug, .ui, "member mute changed", metadata: ["cast.device-id": id, "cast.muted": "\(muted)"])
        pending.withLock { pending in
            var volume = pending[id] ?? member.volume ?? Volume(level: 0, muted: false)
            volume.muted = muted
            pending[id] = volume
        }
        return sent(session.setDeviceMuted(muted, for: member), member: id)
    }

    /// The member's mute toggle.
    @discardableResult
    public func toggleMuted(forMember id: String) -> CastRequest? {
        guard let shown = state.members.first(where: { $0.id == id }) else { return nil }
        return setMuted(!shown.volume.isMuted, forMember: id)
    }

    /// One ``memberStepInterval`` louder.
    @discardableResult
    public func volumeUp(forMember id: String) -> CastRequest? { step(1, forMember: id) }

    /// One ``memberStepInterval`` quieter.
    @discardableResult
    public func volumeDown(forMember id: String) -> CastRequest? { step(-1, forMember: id) }

    /// A control for one member, for a ``DeviceVolumeController`` of its own (a slider, the
    /// step keys and the mute toggle of one member).
    public func control(forMember id: String) -> DeviceVolumeControl {
        DeviceVolumeControl(
            state: { [weak self] in self?.state.members.first { $0.id == id }?.volume ?? .unavailable },
            updates: { [weak self] in
                guard let states = self?.updates() else { return AsyncStream { $0.finish() } }
                return AsyncStream { continuation in
                    let task = Task {
                        for await _ in states { continuation.yield(()) }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            },
            setLevel: { [weak self] level in self?.setVolume(level, forMember: id) },
            step: { [weak self] steps in self?.step(steps, forMember: id) },
            setMuted: { [weak self] muted in self?.setMuted(muted, forMember: id) }
        )
    }

    // MARK: Internals

    private var connected: CastSession? {
        guard let session = manager.currentSession, session.connectionState == .connected else { return nil }
        return session
    }

    private func step(_ steps: Int, forMember id: String) -> CastRequest? {
        guard let shown = state.members.first(where: { $0.id == id }) else { return nil }
        let level = shown.volume.level + Double(steps) * Self.memberStepInterval
        guard (steps > 0 && shown.volume.level < 1) || (steps < 0 && shown.volume.level > 0) else { return nil }
        // On the grid of steps, as a whole number of steps over their count per unit (0.3, not 0.30000000000000004).
        let perUnit = (1 / Self.memberStepInterval).rounded()
        return setVolume((level * perUnit).rounded() / perUnit, forMember: id)
    }

    private func member(_ id: String) -> (CastSession, MultizoneDevice)? {
        guard let session = connected, let member = session.multizoneStatus?.devices.first(where: { $0.deviceID == id })
        else { return nil }
        return (session, member)
    }

    private func sent(_ request: CastRequest, member id: String) -> CastRequest {
        refresh()
        Task { [weak self] in
            let outcome = await request.waitForOutcome()
            // A request that failed leaves the member as the group last reported it.
            if outcome != .completed { self?.pending.withLock { _ = $0.removeValue(forKey: id) } }
            self?.refresh()
        }
        return request
    }

    /// Listens to `session`'s multizone events when it is not the one followed already.
    private func follow(_ session: CastSession?) {
        let replaced = followed.withLock { followed -> Task<Void, Never>? in
            guard followed.session !== session else { return nil }
            let old = followed.task
            followed.session = session
            followed.task = session.map { session in
                let events = session.multizoneEvents()
                return Task { [weak self] in
                    for await event in events {
                        guard let self else { return }
                        self.clearPending(after: event)
                        self.refresh()
                    }
                }
            }
            return old
        }
        replaced?.cancel()
        if replaced != nil || session == nil { pending.withLock { $0 = [:] } }
    }

    /// A member reported again (or gone) is shown as reported.
    private func clearPending(after event: MultizoneEvent) {
        pending.withLock { pending in
            switch event {
            case .deviceUpdated(let device), .deviceAdded(let device): pending.removeValue(forKey: device.deviceID)
            case .deviceRemoved(let id): pending.removeValue(forKey: id)
            case .statusReceived: pending = [:]
            case .playbackSessionUpdated, .castingGroupsReceived: break
            }
        }
    }

    private static func state(of session: CastSession?, pending: [String: Volume]) -> State {
        guard let session, session.connectionState == .connected else { return .unavailable }
        let members = (session.multizoneStatus?.devices ?? []).map { device in
            let reported = device.volume
            let shown = pending[device.deviceID] ?? reported
            let level = shown?.level.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil } ?? 0
            return Member(
                id: device.deviceID,
                name: device.name ?? device.deviceID,
                volume: DeviceVolumeState(
                    level: level,
                    isMuted: shown?.muted ?? false,
                    stepInterval: memberStepInterval,
                    isFixedVolume: false,
                    inputEnabled: true,
                    deviceName: device.name
                )
            )
        }
        return State(groupName: session.device.friendlyName, isGroup: session.device.isGroup, members: members)
    }
}
