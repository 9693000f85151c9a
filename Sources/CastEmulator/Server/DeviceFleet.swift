import CastNet

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
    private let clock: any CastClock
    private let log: (any FrameLogSink)?
    private let advertiser: (any DeviceAdvertiser)?
    /// The advertiser the fleet made for ``FleetConfiguration/mdnsInterfaces``.
    private var mdnsAdvertiser: MDNSDeviceAdvertiser?

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
        var started: [VirtualDevice] = []
        do {
            for entry in configuration.devices {
                let device = VirtualDevice(
                    configuration: entry.configuration,
                    options: entry.options,
                    clock: clock,
                    log: log,
                    advertiser: advertiser,
                    certificateKey: key
                )
                try await device.start()
                started.append(device)
            }
        } catch {
            for device in started { await device.stop() }
            throw error
        }
        devices += started
        return started
    }

    /// The device with friendly name `name`, if any.
    public func device(named name: String) -> VirtualDevice? {
        devices.first { $0.configuration.identity.friendlyName == name }
    }

    /// The device bound to `address`, if any.
    public func device(at address: String) -> VirtualDevice? {
        devices.first { $0.options.address == address }
    }

    /// Stops every device (each tells the advertiser first, for goodbye packets), then closes
    /// the fleet's own mDNS sockets.
    public func stop() async {
        let stopping = devices
        devices = []
        await withDiscardingTaskGroup { group in
            for device in stopping { group.addTask { await device.stop() } }
        }
        mdnsAdvertiser?.shutdown()
        mdnsAdvertiser = nil
    }
}
