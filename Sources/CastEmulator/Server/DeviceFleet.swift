import CastCrypto
public import CastNet
import CastSync
public import CastTime
import Foundation

/// Many virtual devices in one process, each on its own address, started and stopped together.
///
/// The fleet is an actor for its coarse lifecycle only; each device runs its connections on
/// the shared event loops. Devices share one RSA key for their TLS certificates (each has its
/// own certificate), so a fleet of hundreds starts in seconds.
///
/// ```swift
/// let fleet = DeviceFleet()
/// var configuration = try FleetConfiguration.generated(count: 3)  // 127.0.0.2, .3, .4 on 8009/8008/8443
/// configuration.mdnsInterfaces = []                 // advertised over mDNS on loopback
/// try await fleet.start(configuration)
/// await fleet.stop()                                // goodbyes, then the sockets close
/// ```
public actor DeviceFleet {
    /// The running devices, in start order.
    public private(set) var devices: [VirtualDevice] = []
    /// The running speaker groups, in start order (each on a Cast port of its leader).
    public private(set) var groups: [VirtualDevice] = []
    /// Links the groups with their members.
    public let groupHub = SpeakerGroupHub()
    /// ``groups``, for the control endpoints, which run off the actor.
    private let groupList = Locked<[VirtualDevice]>([])
    private let clock: any CastClock
    private let log: (any FrameLogSink)?
    private let advertiser: (any DeviceAdvertiser)?
    /// The advertiser the fleet made for ``FleetConfiguration/mdnsInterfaces``.
    private var mdnsAdvertiser: MDNSDeviceAdvertiser?
    /// The listening sockets of ``FleetConfiguration/sharesPorts`` fleets.
    private let sharedPorts = SharedLoopbackPorts()
    /// How many devices start at once: a start is mostly the RSA signature of the device's
    /// certificate (about 1.5 ms), so a few per core keep every core busy.
    private static let startConcurrency = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)

    /// Creates an empty fleet.
    /// - Parameters:
    ///   - clock: the clock of every device.
    ///   - log: the frame log shared by every device.
    ///   - advertiser: told of each device's start, status changes and stop (mDNS); when
    ///     `nil`, the fleet advertises over mDNS itself if a configuration asks for it.
    public init(
        clock: any CastClock = SystemCastClock(),
        log: (any FrameLogSink)? = nil,
        advertiser: (any DeviceAdvertiser)? = nil
    ) {
        self.clock = clock
        self.log = log
        self.advertiser = advertiser
    }

    /// The interfaces the fleet's own mDNS advertiser runs on, once a configuration with
    /// ``FleetConfiguration/mdnsInterfaces`` started it.
    public var mdnsInterfaceNames: [String]? { mdnsAdvertiser?.interfaceNames }

    /// Starts every device of `configuration`; on a failure, stops those already started.
    ///
    /// When the configuration sets ``FleetConfiguration/mdnsInterfaces`` and the fleet was
    /// not given an advertiser, the first such call opens an ``MDNSDeviceAdvertiser`` on those
    /// interfaces; later calls advertise through it too.
    /// - Returns: the devices started by this call.
    /// - Throws: the first device's start error (address in use or not available, TLS), or
    ///   `UDPSocketError` when the mDNS sockets cannot be opened.
    @discardableResult
    public func start(_ configuration: FleetConfiguration) async throws -> [VirtualDevice] {
        if advertiser == nil, mdnsAdvertiser == nil, let names = configuration.mdnsInterfaces {
            mdnsAdvertiser = try MDNSDeviceAdvertiser(interfaceNames: names.isEmpty ? nil : names)
        }
        let advertiser = self.advertiser ?? mdnsAdvertiser
        let key = try VirtualDeviceTLSKey.shared.get()
        let sharedPorts = configuration.sharesPorts ? self.sharedPorts : nil
        if sharedPorts != nil {
            for (index, entry) in configuration.devices.enumerated() where !entry.options.address.hasPrefix("127.") {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "devices[\(index)].address",
                    detail: "\(entry.options.address) is not a 127.x.y.z address, which shared ports need"
                )
            }
        }
        let made = configuration.devices.map { entry in
            VirtualDevice(
                configuration: entry.configuration,
                options: entry.options,
                clock: clock,
                log: log,
                advertiser: advertiser,
                certificateKey: key,
                sharedPorts: sharedPorts
            )
        }
        let started = try await Self.startAll(made)
        devices += started
        var startedGroups: [VirtualDevice] = []
        do {
            for (index, group) in configuration.groups.enumerated() {
                startedGroups.append(
                    try await startGroup(
                        group,
                        index: index,
                        advertiser: advertiser,
                        key: key,
                        sharesPorts: configuration.sharesPorts
                    )
                )
            }
        } catch {
            for device in startedGroups + started { await device.stop() }
            devices.removeAll { device in started.contains { $0 === device } }
            throw error
        }
        groups += startedGroups
        groupList.withLock { [groups] in $0 = groups }
        for device in started { wireGroupControl(device) }
        return started + startedGroups
    }

    /// Starts `devices` a few at a time; on a failure, stops those started and rethrows.
    /// - Returns: `devices`, all started, in their order.
    private static func startAll(_ devices: [VirtualDevice]) async throws -> [VirtualDevice] {
        // Each start carries its device's index, so the result can be put back in configuration
        // order (starts finish out of order) without a look-up that could miss.
        var started: [(index: Int, device: VirtualDevice)] = []
        var failure: (any Error)?
        await withTaskGroup(of: (Int, VirtualDevice, (any Error)?).self) { group in
            var next = devices.enumerated().makeIterator()
            func addNext() -> Bool {
                guard failure == nil, let (index, device) = next.next() else { return false }
                group.addTask {
                    do {
                        try await device.start()
                        return (index, device, nil)
                    } catch {
                        return (index, device, error)
                    }
                }
                return true
            }
            for _ in 0..<startConcurrency where !addNext() { break }
            for await (index, device, error) in group {
                if let error {
                    failure = failure ?? error
                } else {
                    started.append((index, device))
                }
                _ = addNext()
            }
        }
        if let failure {
            for entry in started { await entry.device.stop() }
            throw failure
        }
        return started.sorted { $0.index < $1.index }.map(\.device)
    }

    private func startGroup(
        _ group: FleetConfiguration.Group,
        index: Int,
        advertiser: (any DeviceAdvertiser)?,
        key: PrivateKey,
        sharesPorts: Bool
    ) async throws -> VirtualDevice {
        let members = group.members.compactMap { name in
            devices.first { $0.configuration.identity.friendlyName == name }
        }
        guard members.count == group.members.count,
            let leader = members.first(where: { $0.configuration.identity.friendlyName == group.leaderName })
        else {
            throw FleetConfigurationError(
                code: .invalidValue,
                path: "groups[\(index)].members",
                detail: "unknown member"
            )
        }
        let made = SpeakerGroupHub.groupConfiguration(
            name: group.name,
            deviceID: group.id.map { $0.filter { $0 != "-" }.lowercased() } ?? FleetConfiguration.randomDeviceID(),
            members: members,
            leader: leader,
            castPort: group.castPort ?? 32_101 + index,
            template: leader.options
        )
        let device = VirtualDevice(
            configuration: made.configuration,
            options: made.options,
            clock: clock,
            log: log,
            advertiser: advertiser,
            certificateKey: key,
            sharedPorts: sharesPorts ? sharedPorts : nil
        )
        try await device.start()
        groupHub.register(group: device, members: members, leader: leader)
        return device
    }

    /// Lets `device`'s control endpoint join and leave groups (`POST /control/group`).
    private func wireGroupControl(_ device: VirtualDevice) {
        device.setGroupControl { [weak self, hub = groupHub] name, joins in
            guard let self else { return false }
            let groups = self.groupsSnapshot
            guard let group = groups.first(where: { $0.configuration.identity.friendlyName == name }) else {
                return false
            }
            if joins { hub.add(device, to: group) } else { hub.remove(device, from: group) }
            return true
        }
    }

    /// The groups, readable from any thread (for the control endpoint).
    private nonisolated var groupsSnapshot: [VirtualDevice] { groupList.withLock { $0 } }

    /// Adds the device named `member` to the group named `group`; `false` when either is unknown.
    @discardableResult
    public func add(member: String, toGroup group: String) -> Bool {
        guard let device = device(named: member),
            let group = groups.first(where: { $0.configuration.identity.friendlyName == group })
        else { return false }
        groupHub.add(device, to: group)
        return true
    }

    /// Removes the device named `member` from the group named `group`; `false` when either is unknown.
    @discardableResult
    public func remove(member: String, fromGroup group: String) -> Bool {
        guard let device = device(named: member),
            let group = groups.first(where: { $0.configuration.identity.friendlyName == group })
        else { return false }
        groupHub.remove(device, from: group)
        return true
    }

    /// Stops one device of the fleet, as a device going offline: its groups report it
    /// removed (`DEVICE_REMOVED`).
    public func stop(_ device: VirtualDevice) async {
        await device.stop()
        groupHub.deviceStopped(device)
    }

    /// The device or group with friendly name `name`, if any.
    public func device(named name: String) -> VirtualDevice? {
        (devices + groups).first { $0.configuration.identity.friendlyName == name }
    }

    /// The device bound to `address`, if any.
    public func device(at address: String) -> VirtualDevice? {
        devices.first { $0.options.address == address }
    }

    /// Stops every device (each tells the advertiser first, for goodbye packets), then closes
    /// the fleet's own mDNS sockets.
    public func stop() async {
        let stopping = groups + devices
        devices = []
        groups = []
        groupList.withLock { $0 = [] }
        await withDiscardingTaskGroup { group in
            for device in stopping { group.addTask { await device.stop() } }
        }
        mdnsAdvertiser?.shutdown()
        mdnsAdvertiser = nil
        await sharedPorts.closeAll()
    }
}
