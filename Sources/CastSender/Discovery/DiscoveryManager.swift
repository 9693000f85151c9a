import CastNet
import CastSync
import Dispatch
import Foundation

/// A change of the device list.
public enum DiscoveryEvent: Sendable, Hashable {
    /// A device appeared.
    case didInsert(CastDevice)
    /// A known device changed.
    case didUpdate(CastDevice)
    /// A device went away.
    case didRemove(CastDevice)
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
}

/// Finds Cast devices (as `GCKDiscoveryManager`): over mDNS (every `_googlecast._tcp` device,
/// or only those advertising the app when ``DiscoveryCriteria/requiresApplicationSubtype``
/// says so), plus devices added by address and confirmed over a Cast connection.
public final class DiscoveryManager: Sendable {
    private struct State {
        var browsed: [UUID: CastDevice] = [:]
        var known: [UUID: CastDevice] = [:]
        var order: [UUID] = []
        var running = false
        var castButtonTapped = false
    }

    private let state = Locked(State())
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

    /// Whether discovery is running.
    public var isDiscoveryActive: Bool { state.withLock { $0.running } }

    /// The devices found, in the order they appeared.
    public var devices: [CastDevice] {
        state.withLock { state in state.order.compactMap { state.known[$0] ?? state.browsed[$0] } }
    }

    /// The number of devices found.
    public var deviceCount: Int { devices.count }

    /// Whether any device was found.
    public var hasDiscoveredDevices: Bool { deviceCount > 0 }

    /// The device with `id`, if found.
    public func device(withID id: UUID) -> CastDevice? { devices.first { $0.id == id } }

    /// Starts discovery over mDNS.
    /// - Throws: ``CastError/Code/network`` when the sockets cannot be opened.
    public func startDiscovery() throws(CastError) {
        let start = state.withLock { state -> Bool in
            defer { state.running = true }
            return !state.running
        }
        guard start, let browser else { return }
        do {
            try browser.start { [weak self] event in self?.browsed(event) }
        } catch {
            state.withLock { $0.running = false }
            throw error
        }
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
    /// - Parameter friendlyName: a name to use instead.
    /// - Throws: ``CastError`` when the host does not answer as a Cast device.
    @discardableResult
    public func addDevice(
        host: String,
        port: Int = 8009,
        friendlyName: String? = nil
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
        defer { connection.close() }
        try connection.send(
            ConnectMessage(),
            namespace: .connection,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        )
        let reply = try await connection.request(
            name: "GET_STATUS",
            namespace: .receiver,
            from: DeviceConnection.platformSenderID,
            to: DeviceConnection.platformReceiverID
        ) { GetReceiverStatusRequest(requestId: $0) }
        guard case .receiver(.receiverStatus(let status)) = reply else {
            throw CastError(.invalidResponse, "\(host):\(port) did not answer GET_STATUS with RECEIVER_STATUS")
        }
        let app = status.status.applications?.first { $0.isIdleScreen != true }
        let setup = await setupInfo
        let address = IPAddress(host)
        let browsed = state.withLock { state in
            state.browsed.values.first { device in
                Int(device.port) == port && address.map { device.addresses.contains($0) } == true
            }
        }
        var capabilities = browsed?.capabilities ?? [.videoOut, .audioOut]
        if setup?.displaySupported == false { capabilities.remove(.videoOut) }
        let device = CastDevice(
            id: setup?.deviceID ?? browsed?.id ?? Self.stableID(host: host, port: port),
            friendlyName: friendlyName ?? setup?.name ?? browsed?.friendlyName ?? "\(host):\(port)",
            modelName: setup?.modelName ?? browsed?.modelName,
            capabilities: capabilities,
            status: app == nil ? .idle : .busy,
            statusText: app?.statusText,
            addresses: address.map { [$0] } ?? [],
            port: UInt16(clamping: port)
        )
        let inserted = state.withLock { state -> Bool in
            let isNew = state.known[device.id] == nil && state.browsed[device.id] == nil
            state.known[device.id] = device
            if isNew { state.order.append(device.id) }
            return isNew
        }
        emit(inserted ? .didInsert(device) : .didUpdate(device))
        onChange()
        return device
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

    private func browsed(_ event: DiscoveryEvent) {
        let report = state.withLock { state -> DiscoveryEvent? in
            guard state.running else { return nil }
            switch event {
            case .didInsert(let device), .didUpdate(let device):
                let isNew = state.browsed[device.id] == nil && state.known[device.id] == nil
                state.browsed[device.id] = device
                if isNew { state.order.append(device.id) }
                return isNew ? .didInsert(device) : .didUpdate(device)
            case .didRemove(let device):
                guard state.browsed.removeValue(forKey: device.id) != nil else { return nil }
                if state.known[device.id] == nil { state.order.removeAll { $0 == device.id } }
                return .didRemove(device)
            }
        }
        guard let report else { return }
        emit(report)
        onChange()
    }

    private func emit(_ event: DiscoveryEvent) {
        listeners.emit(event) { [self] listener, event in
            switch event {
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
    private let state = Locked<(browser: MDNSBrowser?, task: Task<Void, Never>?)>((nil, nil))

    init(criteria: DiscoveryCriteria) {
        self.criteria = criteria
    }

    func start(onEvent: @escaping @Sendable (DiscoveryEvent) -> Void) throws(CastError) {
        let browser: MDNSBrowser
        do {
            browser = try MDNSBrowser(
                configuration: MDNSBrowser.Configuration(
                    applicationID: criteria.applicationID,
                    requiresApplicationSubtype: criteria.requiresApplicationSubtype
                )
            )
            try browser.start()
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
        state.withLock { $0 = (browser, task) }
    }

    func stop() {
        let (browser, task) = state.withLock { state in
            defer { state = (nil, nil) }
            return state
        }
        browser?.stop()
        task?.cancel()
    }
}
