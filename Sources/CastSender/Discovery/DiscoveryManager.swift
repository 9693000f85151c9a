import CastNet
import CastSync
import CastTime
import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A change of the device list.
///
/// A struct, not an enum, so that a later release can add a kind of change without breaking
/// an app's `switch`: switch over ``kind`` and keep a `default`.
public struct DiscoveryEvent: Sendable, Hashable, CustomStringConvertible {
    /// What changed.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The name of the kind, as in `GCKDiscoveryManagerListener`'s methods (`didInsert`).
        public let description: String

        private init(_ name: String) { description = name }

        /// A device appeared.
        public static let didInsert = Kind("didInsert")
        /// A known device changed.
        public static let didUpdate = Kind("didUpdate")
        /// A device went away.
        public static let didRemove = Kind("didRemove")
    }

    /// The changes as the SDK produces them; the public accessors read this.
    enum Payload: Sendable, Hashable {
        case didInsert(CastDevice)
        case didUpdate(CastDevice)
        case didRemove(CastDevice)
    }

    let payload: Payload

    /// What changed.
    public var kind: Kind {
        switch payload {
        case .didInsert: .didInsert
        case .didUpdate: .didUpdate
        case .didRemove: .didRemove
        }
    }

    /// The device that appeared, changed (as it is now) or went away (as it was last seen).
    public var device: CastDevice {
        switch payload {
        case .didInsert(let device), .didUpdate(let device), .didRemove(let device): device
        }
    }

    /// The kind and the device, for logs.
    public var description: String { "DiscoveryEvent(\(kind), \(device.friendlyName ?? device.id.uuidString))" }

    /// A device appeared.
    public static func didInsert(_ device: CastDevice) -> DiscoveryEvent { DiscoveryEvent(payload: .didInsert(device)) }
    /// A known device changed.
    public static func didUpdate(_ device: CastDevice) -> DiscoveryEvent { DiscoveryEvent(payload: .didUpdate(device)) }
    /// A device went away.
    public static func didRemove(_ device: CastDevice) -> DiscoveryEvent { DiscoveryEvent(payload: .didRemove(device)) }
}

/// Hears a ``DiscoveryManager`` (as `GCKDiscoveryManagerListener`); methods default to
/// doing nothing.
public protocol DiscoveryManagerListener: AnyObject, Sendable {
    func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice)
    func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice)
    func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice)
}

extension DiscoveryManagerListener {
    public func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice) {}
    public func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice) {}
    public func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice) {}
}

/// A source of devices, such as the mDNS browser.
protocol DeviceBrowser: Sendable {
    func start(onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) throws(CastError)
    func stop()
    /// Switches between the active and the passive query pace (see ``DiscoveryManager/passiveScan``).
    func setPassive(_ passive: Bool)
}

extension DeviceBrowser {
    func setPassive(_ passive: Bool) {}
}

/// Whether discovery runs (as `GCKDiscoveryState`).
public struct DiscoveryState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: discovery is stopped.
    public static let stopped = DiscoveryState(rawValue: 0)
    /// 1: discovery is running.
    public static let running = DiscoveryState(rawValue: 1)

    public var description: String { rawValue == 1 ? "running" : rawValue == 0 ? "stopped" : "state \(rawValue)" }
}

/// Finds Cast devices (as `GCKDiscoveryManager`): over mDNS (every `_googlecast._tcp` device,
/// or only those advertising the app when ``DiscoveryCriteria/requiresApplicationSubtype``
/// says so), plus devices added by address and confirmed over a Cast connection.
///
/// Listeners hear a device inserted when it appears, updated when anything about it changes
/// (its TXT record: friendly name, status text, busy state, model; its addresses or port),
/// and removed when it goes away. A re-announcement that changes nothing is not reported.
public final class DiscoveryManager: Sendable {
    private struct Finder {
        var uniqueID: String
        var continuation: CheckedContinuation<CastDevice?, Never>
        var timer: CastTimer?
    }

    private struct State {
        var browsed: [UUID: CastDevice] = [:]
        var known: [UUID: CastDevice] = [:]
        var order: [UUID] = []
        var running = false
        var castButtonTapped = false
        var passive = false
        var finders: [UUID: Finder] = [:]
        /// Speaker groups' members, by group id, as the groups reported them.
        var members: [UUID: [CastDevice.GroupReference]] = [:]
        /// The groups each device belongs to, by device id.
        var memberships: [UUID: [CastDevice.GroupReference]] = [:]

        /// `device` with what is known of its groups.
        func decorated(_ device: CastDevice) -> CastDevice {
            var device = device
            device.groupMembers = members[device.id] ?? []
            device.groups = memberships[device.id] ?? []
            return device
        }

        /// Every listed device, with what is known of its groups.
        var listed: [CastDevice] {
            order.compactMap { (browsed[$0] ?? known[$0]).map(decorated) }
        }
    }

    private let state = Locked(State())
    /// The listed devices, for ``observeDevices()``: refreshed from the state with each event
    /// while a stream follows them (building the list costs a pass over every device, too
    /// much per event for a network of thousands that nobody watches).
    private let observedDevices = ObservedValue<[CastDevice]>([])
    private let browser: (any DeviceBrowser)?
    private let listeners: ListenerSet<any DiscoveryManagerListener, DiscoveryEvent>
    private let environment: SessionEnvironment
    let onChange: @Sendable () -> Void

    init(browser: (any DeviceBrowser)?, environment: SessionEnvironment, onChange: @escaping @Sendable () -> Void) {
        self.browser = browser
        self.environment = environment
        self.onChange = onChange
        listeners = ListenerSet(queue: environment.options.callbackQueue)
    }

    private var logger: CastLogger { environment.options.logger }

    /// Whether discovery is running.
    public var isDiscoveryActive: Bool { state.withLock { $0.running } }

    /// Whether discovery is running (as `discoveryState`).
    public var discoveryState: DiscoveryState { isDiscoveryActive ? .running : .stopped }

    /// Whether discovery queries at the passive pace (as `passiveScan`): less often, for
    /// apps that only keep the Cast button's state current and show no device list. The
    /// first query still goes out when discovery starts, cached devices are still refreshed
    /// before they expire and announcements are still heard; active browsing asks after
    /// 1 s, 2 s, 4 s … and passive browsing after 60 s, 120 s …. Changing it takes effect at
    /// once, also while discovery runs. Defaults to `false`.
    public var passiveScan: Bool {
        get { state.withLock { $0.passive } }
        set {
            let changed = state.withLock { state -> Bool in
                defer { state.passive = newValue }
                return state.passive != newValue
            }
            guard changed else { return }
            logger.log(.debug, .discovery, "passive scan changed", metadata: ["cast.passive": "\(newValue)"])
            browser?.setPassive(newValue)
        }
    }

    /// The devices found, in the order they appeared.
    public var devices: [CastDevice] {
        // What mDNS says is fresher than what was confirmed by address.
        state.withLock { $0.listed }
    }

    /// A stream of the devices found so far (``devices``), then the list after every
    /// change: a device found, updated (name, status, groups) or gone.
    public func observeDevices() -> AsyncStream<[CastDevice]> {
        // Refreshed and subscribed under the state's lock, as events refresh it: no event
        // falls between the list the stream starts with and the stream's registration.
        state.withLock { state in
            observedDevices.update(state.listed)
            return observedDevices.stream()
        }
    }

    /// The discovered devices that are members of `group`, in the order the group lists
    /// them (its `CastDevice.groupMembers`); members not discovered are left out. Empty
    /// until a session to the group has reported its members.
    public func members(of group: CastDevice) -> [CastDevice] {
        let devices = devices
        let members = devices.first { $0.id == group.id }?.groupMembers ?? group.groupMembers
        return members.compactMap { member in devices.first { $0.id == member.id } }
    }

    /// The discovered speaker groups `device` belongs to (its `CastDevice.groups`), in
    /// the order they were reported; groups not discovered are left out.
    public func groups(containing device: CastDevice) -> [CastDevice] {
        let devices = devices
        let groups = devices.first { $0.id == device.id }?.groups ?? device.groups
        return groups.compactMap { group in devices.first { $0.id == group.id } }
    }

    /// A speaker group reported its members (its `MULTIZONE_STATUS`, or one added or
    /// removed): the group lists them, and each member lists the group. Devices whose
    /// description changed are reported updated.
    func learnMembers(_ members: [CastDevice.GroupReference], ofGroup group: CastDevice) {
        let members = CastDevice.GroupReference.unique(members.filter { $0.id != group.id })
        let reference = CastDevice.GroupReference(id: group.id, name: group.friendlyName)
        let memberIDs = Set(members.map(\.id))
        relearn { state in
            state.members[group.id] = members
            for (device, groups) in state.memberships where !memberIDs.contains(device) {
                state.memberships[device] = groups.filter { $0.id != group.id }
            }
            for member in members where state.memberships[member.id]?.contains(where: { $0.id == group.id }) != true {
                state.memberships[member.id] = CastDevice.GroupReference.unique(
                    (state.memberships[member.id] ?? []) + [reference]
                )
            }
        }
    }

    /// A device reported the speaker groups it belongs to (`CASTING_GROUPS`, or
    /// `multizone.groups` of its setup document): it lists them, and groups whose members
    /// are known list it (or no longer do).
    func learnGroups(_ groups: [CastDevice.GroupReference], ofDevice device: CastDevice) {
        let groups = CastDevice.GroupReference.unique(groups.filter { $0.id != device.id })
        let groupIDs = Set(groups.map(\.id))
        let reference = CastDevice.GroupReference(id: device.id, name: device.friendlyName)
        relearn { state in
            state.memberships[device.id] = groups
            for (group, members) in state.members {
                let listed = members.contains { $0.id == device.id }
                if groupIDs.contains(group), !listed {
                    state.members[group] = CastDevice.GroupReference.unique(members + [reference])
                } else if !groupIDs.contains(group), listed {
                    state.members[group] = members.filter { $0.id != device.id }
                }
            }
        }
    }

    /// Applies `change` and reports every listed device it changed.
    private func relearn(_ change: (inout State) -> Void) {
        let changed = state.withLock { state -> [CastDevice] in
            let before = Dictionary(state.listed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            change(&state)
            return state.listed.filter { before[$0.id] != $0 }
        }
        guard !changed.isEmpty else { return }
        for device in changed {
            logger.log(
                .debug,
                .discovery,
                "device groups updated",
                metadata: [
                    "cast.device-id": device.idText, "cast.members": "\(device.groupMembers.count)",
                    "cast.groups": "\(device.groups.count)",
                ]
            )
            emit(.didUpdate(device))
        }
        onChange()
    }

    /// The number of devices found.
    public var deviceCount: Int { devices.count }

    /// Whether any device was found.
    public var hasDiscoveredDevices: Bool { deviceCount > 0 }

    /// The device with `id`, if found.
    public func device(withID id: UUID) -> CastDevice? { devices.first { $0.id == id } }

    /// The device with `uniqueID` (as `deviceWithUniqueID:`): its TXT `id`, 32 hex digits,
    /// or the dashed UUID form; `nil` when not found.
    public func device(withUniqueID uniqueID: String) -> CastDevice? {
        guard let id = CastDevice.parseID(uniqueID) else { return nil }
        return device(withID: id)
    }

    /// Waits until discovery knows the device with `uniqueID` (as
    /// `findDeviceWithUniqueID:timeout:completion:`), for at most `timeout` on the context's
    /// clock; returns at once when it is known already. This does not start discovery: a
    /// device can be found meanwhile by mDNS (when discovery runs) or by
    /// ``addDevice(host:port:friendlyName:)``.
    ///
    /// Cancelling the waiting task ends the wait at once (as `cancelFindOperation`): the call
    /// returns `nil`.
    /// - Returns: the device, or `nil` after the timeout, on cancellation, or when
    ///   `uniqueID` is not a device id.
    public func findDevice(uniqueID: String, timeout: Duration) async -> CastDevice? {
        guard CastDevice.parseID(uniqueID) != nil else { return nil }
        if let found = device(withUniqueID: uniqueID) { return found }
        let key = UUID()
        logger.log(.debug, .discovery, "waiting for a device", metadata: ["cast.device-id": uniqueID])
        let found = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CastDevice?, Never>) in
                let early = state.withLock { state -> CastDevice?? in
                    if Task.isCancelled { return .some(nil) }
                    if let id = CastDevice.parseID(uniqueID), let device = state.known[id] ?? state.browsed[id] {
                        return .some(state.decorated(device))
                    }
                    state.finders[key] = Finder(uniqueID: uniqueID, continuation: continuation)
                    return nil
                }
                if let early {
                    continuation.resume(returning: early)
                    return
                }
                let timer = environment.clock.schedule(after: timeout) { [weak self] in
                    self?.finishFinding(key, with: nil)
                }
                let pending = state.withLock { state -> Bool in
                    guard state.finders[key] != nil else { return false }
                    state.finders[key]?.timer = timer
                    return true
                }
                if !pending { timer.cancel() }
            }
        } onCancel: {
            finishFinding(key, with: nil)
        }
        logger.log(
            found == nil ? .info : .debug,
            .discovery,
            found == nil ? "device not found" : "device found",
            metadata: ["cast.device-id": uniqueID]
        )
        return found
    }

    /// Starts discovery over mDNS.
    /// - Throws: ``CastError/Code/network`` when the sockets cannot be opened.
    public func startDiscovery() throws(CastError) {
        let start = state.withLock { state -> Bool in
            defer { state.running = true }
            return !state.running
        }
        guard start, let browser else { return }
        do {
            browser.setPassive(passiveScan)
            try browser.start { [weak self] event in self?.browsed(event) }
        } catch {
            state.withLock { $0.running = false }
            logger.log(.error, .discovery, "discovery could not start", metadata: ["cast.error": error.description])
            throw error
        }
        logger.log(
            .info,
            .discovery,
            "discovery started",
            metadata: [
                "cast.subtypes": environment.options.discoveryCriteria.allSubtypes.joined(separator: ","),
                "cast.passive": "\(passiveScan)",
            ]
        )
        onChange()
    }

    /// Stops discovery; devices found by mDNS are forgotten, devices added by address stay.
    public func stopDiscovery() {
        let removed = state.withLock { state -> [CastDevice]? in
            guard state.running else { return nil }
            state.running = false
            let removed = state.browsed.values.filter { state.known[$0.id] == nil }
            for device in removed { state.order.removeAll { $0 == device.id } }
            state.browsed.removeAll()
            return Array(removed)
        }
        guard let removed else { return }
        browser?.stop()
        logger.log(.info, .discovery, "discovery stopped", metadata: ["cast.forgotten": "\(removed.count)"])
        for device in removed { emit(.didRemove(device)) }
        onChange()
    }

    /// Tells discovery that the Cast button was tapped: with
    /// ``CastOptions/startDiscoveryAfterFirstTapOnCastButton`` this starts discovery the
    /// first time.
    public func castButtonTapped() {
        let first = state.withLock { state -> Bool in
            defer { state.castButtonTapped = true }
            return !state.castButtonTapped
        }
        let options = environment.options
        if first, !options.disableDiscoveryAutostart, options.startDiscoveryAfterFirstTapOnCastButton {
            logger.log(.info, .discovery, "first tap on the Cast button starts discovery")
            try? startDiscovery()
        }
    }

    /// Adds a device by address after confirming it speaks Cast: a TLS connection, CONNECT
    /// and a RECEIVER_STATUS reply.
    ///
    /// The device is named as it names itself: the `name` of its setup document
    /// (`/setup/eureka_info` on port 8008), else the name discovery found for that address,
    /// else `host:port`. The document also gives its id (`ssdp_udn`, so a device found both
    /// ways is listed once), its model and whether it has a display.
    ///
    /// Cancelling the waiting task stops the check at its next step (once the TLS connection
    /// is up, or while waiting for RECEIVER_STATUS): the probe connection is closed, nothing
    /// is added, and the call throws ``CastError/Code/cancelled``.
    /// - Parameters:
    ///   - host: the device's IP address (or a host name).
    ///   - port: its Cast port, 8009 unless given.
    ///   - friendlyName: a name to use instead.
    /// - Throws: ``CastError`` when the host does not answer as a Cast device, or
    ///   ``CastError/Code/cancelled``.
    @discardableResult
    public func addDevice(
        host: String,
        port: Int = 8009,
        friendlyName: String? = nil
    ) async throws(CastError)
        -> CastDevice
    {
        try await addDevice(host: host, port: port, friendlyName: friendlyName, keepingConnectionFor: nil)
    }

    /// Adds a device by address as ``addDevice(host:port:friendlyName:)`` does; with a
    /// `lifetime`, the checking connection stays open that long for a session started on
    /// the same address, which then needs no connection of its own (a command that checks
    /// a device and casts to it opens one connection).
    @discardableResult
    package func addDevice(
        host: String,
        port: Int = 8009,
        friendlyName: String? = nil,
        keepingConnectionFor lifetime: Duration?
    ) async throws(CastError)
        -> CastDevice
    {
        let setupSource = environment.setupInfo
        async let setupInfo = setupSource?.fetch(host, environment.options.requestTimeout)
        let connection = try await DeviceConnection.open(
            host: host,
            port: port,
            connector: environment.connector,
            clock: environment.clock,
            logger: environment.options.logger,
            heartbeatInterval: environment.options.heartbeatInterval,
            heartbeatTimeout: environment.options.heartbeatTimeout,
            requestTimeout: environment.options.requestTimeout
        ) { _ in }
        var kept = false
        defer { if !kept { connection.close() } }
        if Task.isCancelled { throw CastError(.cancelled, "addDevice \(host):\(port) was cancelled") }
        if lifetime == nil {
            try connection.send(
                ConnectMessage(),
                namespace: .connection,
                from: DeviceConnection.platformSenderID,
                to: DeviceConnection.platformReceiverID
            )
        } else {
            // The CONNECT a session sends, so that the session taking this connection need not.
            try environment.connectToPlatform(on: connection)
        }
        let reply = try await connection.request(
            name: "GET_STATUS",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        ) { GetReceiverStatusRequest(requestID: $0) }
        guard case .receiver(.receiverStatus(let status)) = reply else {
            throw CastError(.invalidResponse, "\(host):\(port) did not answer GET_STATUS with RECEIVER_STATUS")
        }
        let app = status.status.applications?.first { $0.isIdleScreen != true }
        if let lifetime {
            environment.handover.park(connection, host: host, port: port, lifetime: lifetime, clock: environment.clock)
            kept = true
        }
        let setup = await setupInfo
        let address = IPAddress(host)
        let browsed = state.withLock { state in
            state.browsed.values.first { device in
                Int(device.port) == port && address.map { device.addresses.contains($0) } == true
            }
        }
        var capabilities = browsed?.capabilities ?? [.videoOut, .audioOut]
        if setup?.displaySupported == false { capabilities.remove(.videoOut) }
        // The setup server on the address is the leader's: a port it lists for a group is that group.
        let group = setup?.groups.first { $0.castPort == port }
        if group != nil { capabilities = [.audioOut, .multizoneGroup, .masterOrFixedVolume] }
        let device = CastDevice(
            id: group?.id ?? setup?.deviceID ?? browsed?.id ?? Self.stableID(host: host, port: port),
            friendlyName: friendlyName ?? group?.name ?? setup?.name ?? browsed?.friendlyName ?? "\(host):\(port)",
            modelName: group != nil ? "Google Cast Group" : setup?.modelName ?? browsed?.modelName,
            capabilities: capabilities,
            status: app == nil ? .idle : .busy,
            statusText: app?.statusText,
            addresses: address.map { [$0] } ?? [],
            port: UInt16(clamping: port)
        )
        let (inserted, changed, finders, listed) = state.withLock {
            state -> (Bool, Bool, [Finder], CastDevice) in
            let previous = state.known[device.id] ?? state.browsed[device.id]
            state.known[device.id] = device
            if previous == nil { state.order.append(device.id) }
            return (
                previous == nil, previous != device, Self.takeFinders(for: device, in: &state), state.decorated(device)
            )
        }
        resume(finders, with: listed)
        logger.log(
            .info,
            .discovery,
            inserted ? "device added by address" : "device confirmed by address",
            metadata: ["cast.address": "\(host):\(port)", "cast.device-id": device.idText]
        )
        if changed {
            emit(inserted ? .didInsert(listed) : .didUpdate(listed))
            onChange()
        }
        // A speaker's setup document names the groups it is in (a group's is its leader's).
        if group == nil, let setup {
            let groups = setup.groups.compactMap { entry in
                entry.id.map { CastDevice.GroupReference(id: $0, name: String(entry.name.prefix(256))) }
            }
            if !groups.isEmpty { learnGroups(groups, ofDevice: device) }
        }
        return self.device(withID: device.id) ?? listed
    }

    /// Forgets a device added by address.
    public func removeDevice(_ device: CastDevice) {
        let removed = state.withLock { state -> Bool in
            guard state.known.removeValue(forKey: device.id) != nil else { return false }
            if state.browsed[device.id] == nil { state.order.removeAll { $0 == device.id } }
            return true
        }
        if removed {
            emit(.didRemove(device))
            onChange()
        }
    }

    /// Adds a listener (held weakly).
    public func add(_ listener: any DiscoveryManagerListener) { listeners.add(listener) }

    /// Removes a listener.
    public func remove(_ listener: any DiscoveryManagerListener) { listeners.remove(listener) }

    /// A stream of every later change.
    public func events() -> AsyncStream<DiscoveryEvent> { listeners.stream() }

    /// A device event from the browser: inserted when new, updated only when something
    /// about the device changed, removed when it was known.
    func browsed(_ event: DiscoveryEvent) {
        let (report, finders) = state.withLock { state -> (DiscoveryEvent?, [Finder]) in
            guard state.running else { return (nil, []) }
            switch event.payload {
            case .didInsert(let device), .didUpdate(let device):
                let previous = state.browsed[device.id]
                let isNew = previous == nil && state.known[device.id] == nil
                state.browsed[device.id] = device
                if isNew { state.order.append(device.id) }
                let finders = Self.takeFinders(for: device, in: &state)
                if isNew { return (.didInsert(state.decorated(device)), finders) }
                return (previous == device ? nil : .didUpdate(state.decorated(device)), finders)
            case .didRemove(let device):
                guard state.browsed.removeValue(forKey: device.id) != nil else { return (nil, []) }
                if state.known[device.id] == nil { state.order.removeAll { $0 == device.id } }
                return (.didRemove(device), [])
            }
        }
        if let report, report.kind != .didRemove { resume(finders, with: report.device) }
        if report == nil, !finders.isEmpty, event.kind == .didUpdate {
            resume(finders, with: state.withLock { $0.decorated(event.device) })
        }
        guard let report else { return }
        switch report.payload {
        case .didInsert(let device):
            logger.log(
                .debug,
                .discovery,
                "device found",
                metadata: ["cast.device-id": device.idText, "cast.name": device.friendlyName ?? ""]
            )
        case .didUpdate(let device):
            logger.log(
                .debug,
                .discovery,
                "device updated",
                metadata: ["cast.device-id": device.idText, "cast.name": device.friendlyName ?? ""]
            )
        case .didRemove(let device):
            logger.log(.debug, .discovery, "device removed", metadata: ["cast.device-id": device.idText])
        }
        emit(report)
        onChange()
    }

    private static func takeFinders(for device: CastDevice, in state: inout State) -> [Finder] {
        let keys = state.finders.filter { CastDevice.parseID($0.value.uniqueID) == device.id }.map(\.key)
        return keys.compactMap { state.finders.removeValue(forKey: $0) }
    }

    private func resume(_ finders: [Finder], with device: CastDevice) {
        for finder in finders {
            finder.timer?.cancel()
            finder.continuation.resume(returning: device)
        }
    }

    private func finishFinding(_ key: UUID, with device: CastDevice?) {
        guard let finder = state.withLock({ $0.finders.removeValue(forKey: key) }) else { return }
        finder.timer?.cancel()
        finder.continuation.resume(returning: device)
    }

    private func emit(_ event: DiscoveryEvent) {
        // Read under the lock at each event, so the last update always reads the latest list,
        // whichever order concurrent events arrive in.
        state.withLock { state in
            if observedDevices.isObserved { observedDevices.update(state.listed) }
        }
        listeners.emit(event) { [self] listener, event in
            switch event.payload {
            case .didInsert(let device): listener.discoveryManager(self, didInsert: device)
            case .didUpdate(let device): listener.discoveryManager(self, didUpdate: device)
            case .didRemove(let device): listener.discoveryManager(self, didRemove: device)
            }
        }
    }

    /// A stable id for a device known only by address.
    static func stableID(host: String, port: Int) -> UUID {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(host):\(port)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let bytes = (0..<16).map { UInt8(truncatingIfNeeded: (hash &* UInt64($0 + 1)) >> 24) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], 0x40 | bytes[6] & 0x0F, bytes[7],
                0x80 | bytes[8] & 0x3F, bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}

/// The mDNS browser as a ``DeviceBrowser``.
final class MDNSDeviceBrowser: DeviceBrowser {
    private let criteria: DiscoveryCriteria
    private let interfaceNames: [String]?
    private let state = Locked<(browser: MDNSBrowser?, task: Task<Void, Never>?, passive: Bool)>((nil, nil, false))

    /// Browses every Cast device, asking for the subtype of the criteria's application too,
    /// on the named interfaces (`nil`: every multicast-capable one that is not loopback).
    init(criteria: DiscoveryCriteria, interfaceNames: [String]?) {
        self.criteria = criteria
        self.interfaceNames = interfaceNames
    }

    func setPassive(_ passive: Bool) {
        let browser = state.withLock { state -> MDNSBrowser? in
            state.passive = passive
            return state.browser
        }
        browser?.passiveScan = passive
    }

    func start(onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) throws(CastError) {
        let browser: MDNSBrowser
        do {
            browser = try MDNSBrowser(
                configuration: MDNSBrowser.Configuration(
                    applicationID: criteria.browsedApplicationID,
                    requiresApplicationSubtype: criteria.requiresApplicationSubtype,
                    interfaceNames: interfaceNames
                )
            )
            browser.passiveScan = state.withLock { $0.passive }
            try browser.start()
        } catch  where error.code == .noUsableInterface || error.code == .unknownInterface {
            throw CastError(
                .network,
                "cannot start mDNS discovery: \(error); choose interfaces with CastOptions.discoveryInterfaces",
                underlying: error
            )
        } catch {
            throw CastError(.network, "cannot start mDNS discovery: \(error)", underlying: error)
        }
        let task = Task {
            for await event in browser.events {
                switch event.kind {
                case .inserted: onEvent(.didInsert(event.device))
                case .removed: onEvent(.didRemove(event.device))
                default: onEvent(.didUpdate(event.device))
                }
            }
        }
        state.withLock { state in
            state.browser = browser
            state.task = task
        }
    }

    func stop() {
        let (browser, task) = state.withLock { state in
            defer {
                state.browser = nil
                state.task = nil
            }
            return (state.browser, state.task)
        }
        browser?.stop()
        task?.cancel()
    }
}
