public import CastCrypto
public import CastNet
import CastSync
public import CastTime
public import Foundation

/// A virtual Cast device: a TLS Cast channel (8009), a setup HTTP server (8008) and its HTTPS
/// twin (8443), all bound to the device's own address, around a sans-I/O behaviour engine.
///
/// Sockets run on the event loops of `CastNet`: each sender's frames arrive on its
/// connection's loop and go straight to the engine, which sits with the fault state and the
/// connection table under one lock; no task or thread per connection. The engine's timers
/// become one clock timer at its next deadline.
///
/// ```swift
/// let identity = DeviceIdentity(friendlyName: "Living Room", deviceID: "0123456789abcdef0123456789abcdef")
/// let device = VirtualDevice(configuration: .init(identity: identity), options: .init(address: "127.0.0.2"))
/// try await device.start()
/// device.faults.ignoresPings = true
/// await device.stop()
/// ```
public final class VirtualDevice: Sendable {
    /// The ports a started device listens on (the chosen ones when 0 was asked for).
    public struct Ports: Sendable, Equatable {
        /// The TLS Cast channel.
        public var cast: Int
        /// The plain HTTP setup server (0 for a speaker group, which has none).
        public var http: Int
        /// The HTTPS setup server (0 for a speaker group, which has none).
        public var https: Int
    }

    /// The engine and what follows its steps, under the device's one engine lock.
    struct EngineState {
        var engine: any HostedEngine
        var tickTimer: CastTimer?
        var tickDeadline: CastInstant?
        var status = DeviceAdvertisedStatus.idle
        var stopped = false
    }

    /// Who the device is, its apps and timing.
    public let configuration: VirtualDeviceConfiguration
    /// Where the device listens.
    public let options: DeviceServerOptions
    let clock: any CastClock
    let advertiser: (any DeviceAdvertiser)?
    let makeEngine: @Sendable (DeviceInstant) -> any HostedEngine
    /// The engine's lock: taken first, before the lock of any part below.
    let state: Locked<EngineState>
    /// The Cast and setup listeners and the TLS certificate.
    let listeners: DeviceListeners
    /// The open sender connections.
    let links: SenderLinkTable
    /// The reply delay and the wire faults.
    let faultInjector: DeviceFaultInjector
    /// The browsers following the device's screen, when it serves one.
    let screen: DeviceScreen?
    /// Where the device's speaker-group events go, and how it joins and leaves groups.
    let groupMembership = DeviceGroupMembership()
    /// The media of `LOAD`s read in ``MediaMode/fetch`` and ``MediaMode/auto``.
    let mediaReads: DeviceMediaReads
    let log: DeviceFrameLog

    /// Creates a device; it listens once ``start(restoring:)`` is called.
    /// - Parameters:
    ///   - configuration: identity, apps, volume and timing of the device.
    ///   - options: address, ports and setup-server details.
    ///   - clock: the device's clock (timers, reply delays, uptime).
    ///   - log: where frames in and out and connection events are recorded, if anywhere.
    ///   - advertiser: told when the device starts, changes status and stops (mDNS).
    ///   - certificateKey: the RSA key of the TLS certificate; unless given, a 2048-bit key
    ///     generated once per process and shared by every device started without one (each
    ///     device still presents a certificate of its own).
    ///   - currentDate: the device's wall clock; the TLS certificate is valid from a minute
    ///     before the date it gives at ``start(restoring:)``.
    ///   - sharedPorts: when given, the device serves its (loopback) address on these
    ///     sockets, one per port, instead of binding its own.
    public convenience init(
        configuration: VirtualDeviceConfiguration,
        options: DeviceServerOptions = DeviceServerOptions(),
        clock: any CastClock = SystemCastClock(),
        log: (any FrameLogSink)? = nil,
        advertiser: (any DeviceAdvertiser)? = nil,
        certificateKey: PrivateKey? = nil,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        sharedPorts: SharedLoopbackPorts? = nil
    ) {
        self.init(
            configuration: configuration,
            options: options,
            clock: clock,
            log: log,
            advertiser: advertiser,
            certificateKey: certificateKey,
            currentDate: currentDate,
            sharedPorts: sharedPorts
        ) { now in
            VirtualDeviceEngine(configuration: configuration, at: now)
        }
    }

    init(
        configuration: VirtualDeviceConfiguration,
        options: DeviceServerOptions,
        clock: any CastClock,
        log: (any FrameLogSink)?,
        advertiser: (any DeviceAdvertiser)?,
        certificateKey: PrivateKey?,
        currentDate: @escaping @Sendable () -> Date = { Date() },
        sharedPorts: SharedLoopbackPorts? = nil,
        makeEngine: @escaping @Sendable (DeviceInstant) -> any HostedEngine
    ) {
        self.configuration = configuration
        self.options = options
        self.clock = clock
        self.advertiser = advertiser
        self.makeEngine = makeEngine
        self.state = Locked(EngineState(engine: makeEngine(clock.now)))
        self.listeners = DeviceListeners(
            options: options,
            sharedPorts: sharedPorts,
            certificateKey: certificateKey,
            currentDate: currentDate
        )
        let log = DeviceFrameLog(sink: log, device: configuration.identity.friendlyName)
        self.log = log
        self.links = SenderLinkTable()
        self.faultInjector = DeviceFaultInjector(links: links, log: log)
        self.screen =
            options.servesScreen
            ? DeviceScreen(limit: options.screenClientLimit, bufferLimit: options.screenBufferLimit, clock: clock)
            : nil
        self.mediaReads = DeviceMediaReads(options: options, clock: clock)
    }

    deinit {
        state.withLock { $0.tickTimer?.cancel() }
        for link in links.close() { link.close(reason: "device released") }
    }

    // MARK: Lifecycle

    /// The ports the device listens on, once started.
    public var ports: Ports? { listeners.ports }

    /// The device's TLS certificate, once started.
    public var certificate: Certificate? { listeners.certificate }

    /// A copy of the behaviour engine's state now (receiver status, media status, apps), or
    /// `nil` when the device runs another engine.
    public var engineSnapshot: VirtualDeviceEngine? { state.withLock { $0.engine as? VirtualDeviceEngine } }

    /// The device's clock reading now, for ``VirtualDeviceEngine/mediaStatus(at:)``.
    public var engineNow: DeviceInstant { clock.now }

    /// The number of sender connections open now.
    public var connectionCount: Int { links.count }

    /// The device's mDNS advertisement (valid once started).
    public var advertisement: DeviceAdvertisement {
        let status = state.withLock { $0.status }
        return DeviceAdvertisement(
            identity: configuration.identity,
            address: options.address,
            port: listeners.ports?.cast ?? options.castPort,
            status: status,
            applicationIDs: configuration.applications.map(\.appID)
        )
    }

    /// Generates the TLS certificate and starts listening on the three ports.
    /// - Parameter snapshot: a receiver app to run again (see ``restore(_:)``) before the
    ///   device listens: the first sender to connect, such as one resuming its saved session,
    ///   already finds the app and its media, and the first advertisement names the app.
    ///   Restoring after `start()` instead leaves a moment in which a sender sees an idle
    ///   device and gives its session up.
    /// - Throws: `TCPError` (address in use or not available), `TLSError` or
    ///   `OpenSSLError` (certificate generation). A device that was restoring a snapshot is
    ///   stopped then (its media reads end); start a new one to try again.
    /// - Returns: the ports the device listens on.
    @discardableResult
    public func start(restoring snapshot: VirtualDeviceSnapshot? = nil) async throws -> Ports {
        if let snapshot { restore(snapshot) }
        let ports: Ports
        let certificate: Certificate
        do {
            (ports, certificate) = try listeners.open(
                commonName: configuration.identity.deviceID,
                adopt: { [weak self] connection in
                    guard let self else {
                        connection.close(reason: "the device is gone")
                        return
                    }
                    self.adopt(connection)
                },
                routes: { secure in SetupHTTPServer.routes(for: self, secure: secure) },
                at: clock.now
            )
        } catch {
            if snapshot != nil { await stop() }
            throw error
        }
        state.withLock { state in
            state.engine.setTLSCertificate(certificate.derBytes)
            state.status = DeviceAdvertisedStatus(application: state.engine.runningApplication)
        }
        advertiser?.deviceDidStart(advertisement)
        return ports
    }

    /// Stops listening, closes every connection (after its queued frames) and waits until
    /// they are closed. When it returns, the device's ports can be bound again (a device
    /// restarted on the same address and ports, as castvideos' built-in one is).
    public func stop() async {
        let wasRunning = listeners.isOpen && !state.withLock { $0.stopped }
        if wasRunning { advertiser?.deviceWillStop(advertisement) }
        state.withLock { state in
            state.stopped = true
            state.tickTimer?.cancel()
            state.tickTimer = nil
            state.tickDeadline = nil
        }
        mediaReads.cancelAll()
        let connections = links.close()
        listeners.close()
        screen?.close()
        for connection in connections { connection.close(reason: "device stopped") }
        await listeners.waitUntilClosed()
        for connection in connections { _ = await connection.transport.closed() }
    }

    /// Seconds since ``start(restoring:)``, on the device's clock.
    var uptime: Double {
        guard let startedAt = listeners.startedAt else { return 0 }
        return startedAt.duration(to: clock.now) / .seconds(1)
    }
}
