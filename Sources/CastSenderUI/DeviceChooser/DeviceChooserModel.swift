import CastCore
public import CastNet
public import CastSender
import CastSync
public import CastTime
public import Foundation
public import Observation

/// The device chooser (the Cast dialog): the live list of devices, selecting one starts a
/// session, and with no device the guidance of ``NoDevicesGuidance`` plus a retry that
/// restarts discovery.
///
/// ```swift
/// let chooser = DeviceChooserModel(context: context)
/// for await state in chooser.updates() { redraw(state) }
/// try await chooser.select(deviceID)   // the session is connected when this returns
/// ```
public final class DeviceChooserModel: Observable, Sendable {
    /// One row of the list.
    public struct Device: Sendable, Hashable, Identifiable {
        /// The device's id (`CastDevice.id`).
        public var id: UUID
        /// The name to show.
        public var name: String
        /// The model, e.g. "Chromecast".
        public var modelName: String?
        /// What the device is doing, e.g. the name of a running app.
        public var statusText: String?
        /// Whether another app runs on it.
        public var isBusy: Bool
        /// Whether it is a speaker group (`CastDevice.isGroup`): casting to it plays on
        /// every member.
        public var isGroup = false
        /// A group's members' names, when known: while a session is connected to the group,
        /// as its `MULTIZONE_STATUS` last listed them, else as discovery last learned them
        /// (`CastDevice.groupMembers`); empty when unknown.
        public var members: [String] = []
        /// The names of the speaker groups the device belongs to, when known
        /// (`CastDevice.groups`); empty for a group and when unknown.
        public var groups: [String] = []

        /// Creates a row, for a front end's previews and tests.
        public init(
            id: UUID,
            name: String,
            modelName: String? = nil,
            statusText: String? = nil,
            isBusy: Bool = false,
            isGroup: Bool = false,
            members: [String] = [],
            groups: [String] = []
        ) {
            self.id = id
            self.name = name
            self.modelName = modelName
            self.statusText = statusText
            self.isBusy = isBusy
            self.isGroup = isGroup
            self.members = members
            self.groups = groups
        }
    }

    /// What the chooser shows.
    public enum Phase: Sendable, Hashable {
        /// Discovery runs and nothing was found yet.
        case searching
        /// The list of devices.
        case devices
        /// Nothing found: explain why and offer to retry.
        case noDevices(NoDevicesGuidance)
    }

    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The phase.
        public var phase: Phase
        /// The devices, in the order they appeared.
        public var devices: [Device]
        /// The device a session is being started on.
        public var connectingDeviceID: UUID?
        /// Why the last selection or discovery start failed.
        public var errorMessage: String?
        /// Whether discovery runs.
        public var isDiscoveryActive: Bool
    }

    private let machine: Locked<DeviceChooserStateMachine>
    private let discovery: DiscoveryControl
    private let startSession: @Sendable (CastDevice) async throws(CastError) -> Void
    private let groupMembers: @Sendable (UUID) -> [String]
    private let clock: any CastClock
    private let searchTimeout: Duration
    private let guidance: NoDevicesGuidance
    private let timer = Locked<CastTimer?>(nil)
    private let logger: CastLogger
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the chooser for `context`.
    /// - Parameters:
    ///   - context: the context whose discovery and sessions the chooser drives.
    ///   - searchTimeout: how long to show "searching" before the no-devices guidance.
    ///   - guidance: the text shown when nothing is found.
    ///   - clock: the clock of the search window.
    public convenience init(
        context: CastContext,
        searchTimeout: Duration = .seconds(5),
        guidance: NoDevicesGuidance = .standard,
        clock: any CastClock = SystemCastClock()
    ) {
        let sessionManager = context.sessionManager
        self.init(
            discovery: DiscoveryControl(context.discoveryManager),
            startSession: { device throws(CastError) in
                _ = try await sessionManager.startSession(with: device, host: nil, port: nil)
            },
            groupMembers: { id in
                guard let session = sessionManager.currentSession, session.connectionState == .connected,
                    session.device.id == id
                else { return [] }
                return session.multizoneStatus?.devices.map { $0.name ?? $0.deviceID } ?? []
            },
            searchTimeout: searchTimeout,
            guidance: guidance,
            clock: clock,
            logger: context.logger
        )
    }

    init(
        discovery: DiscoveryControl,
        startSession: @escaping @Sendable (CastDevice) async throws(CastError) -> Void,
        groupMembers: @escaping @Sendable (UUID) -> [String] = { _ in [] },
        searchTimeout: Duration,
        guidance: NoDevicesGuidance = .standard,
        clock: any CastClock,
        logger: CastLogger = .shared
    ) {
        self.logger = logger
        self.discovery = discovery
        self.startSession = startSession
        self.groupMembers = groupMembers
        self.searchTimeout = searchTimeout
        self.guidance = guidance
        self.clock = clock
        let events = discovery.events()
        machine = Locked(DeviceChooserStateMachine(devices: discovery.devices(), discoveryActive: discovery.isActive()))
        scheduleSearchWindow()
        tasks.run { [weak self] in
            for await event in events {
                guard let self else { return }
                self.machine.withLock { $0.apply(event) }
                self.publish()
            }
        }
        broadcaster.bind(self, \.state)
    }

    deinit { timer.withLock { $0 }?.cancel() }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        var state = machine.withLock { machine in
            State(
                phase: machine.isSearching ? .searching : (machine.showsGuidance ? .noDevices(guidance) : .devices),
                devices: machine.devices.map(Device.init(device:)),
                connectingDeviceID: machine.connectingDeviceID,
                errorMessage: machine.errorMessage,
                isDiscoveryActive: machine.discoveryActive
            )
        }
        for index in state.devices.indices where state.devices[index].isGroup {
            let live = groupMembers(state.devices[index].id)
            if !live.isEmpty { state.devices[index].members = live }
        }
        return state
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Starts a session on the device with `id` and waits until it is connected.
    ///
    /// Cancelling the waiting task cancels the session start (as
    /// `SessionManager.startSession(with:host:port:)`): the call throws
    /// `CastError.Code.cancelled` and the error shows in ``State/errorMessage``.
    /// - Throws: `CastError`: `CastError.Code.invalidRequest` when no such device is
    ///   listed, else why the session did not start (also in ``State/errorMessage``).
    public func select(_ id: UUID) async throws(CastError) {
        guard let device = machine.withLock({ $0.devices.first { $0.id == id } }) else {
            throw CastError(.invalidRequest, "select: no listed device has id \(id)")
        }
        logger.log(
            .info,
            .ui,
            "device chosen",
            metadata: ["cast.device-id": device.idText, "cast.name": device.friendlyName ?? ""]
        )
        machine.withLock { $0.connecting(to: id) }
        publish()
        do {
            try await startSession(device)
        } catch {
            machine.withLock { $0.connectFinished(error: error.description) }
            publish()
            throw error
        }
        machine.withLock { $0.connectFinished(error: nil) }
        publish()
    }

    /// The guidance's retry: restarts discovery and opens a new search window.
    public func retry() {
        logger.log(.debug, .ui, "device search retried")
        if discovery.isActive() { discovery.stop() }
        do {
            try discovery.start()
            machine.withLock { $0.searchStarted(active: true) }
        } catch {
            machine.withLock { $0.discoveryFailed("\(error)") }
        }
        scheduleSearchWindow()
        publish()
    }

    private func scheduleSearchWindow() {
        let next = clock.schedule(after: searchTimeout) { [weak self] in
            guard let self else { return }
            self.machine.withLock { $0.searchWindowElapsed() }
            self.publish()
        }
        timer.withLock { old in
            old?.cancel()
            old = next
        }
    }

    private func publish() { broadcaster.publish(state) }
}

extension DeviceChooserModel.Device {
    init(device: CastDevice) {
        self.init(
            id: device.id,
            name: device.friendlyName ?? device.hostName,
            modelName: device.modelName,
            statusText: device.statusText,
            isBusy: device.status == .busy,
            isGroup: device.isGroup,
            members: device.groupMembers.map { $0.name ?? $0.id.uuidString },
            groups: device.isGroup ? [] : device.groups.map { $0.name ?? $0.id.uuidString }
        )
    }
}
