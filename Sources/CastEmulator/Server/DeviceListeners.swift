import CastCrypto
import CastNet
import CastNetCore
import CastSync
import CastTime
import Foundation

/// The sockets a device listens on: the TLS Cast channel (8009) and the setup HTTP server
/// (8008) with its HTTPS twin (8443), all on the device's own address (or on a fleet's shared
/// ports), with the TLS certificate they present.
final class DeviceListeners: Sendable {
    private struct State {
        var cast: CastListener?
        var setupServers: [HTTPServer] = []
        var ports: VirtualDevice.Ports?
        var certificate: Certificate?
        var startedAt: CastInstant?
        /// The listeners ``close()`` closed, until ``waitUntilClosed()`` has waited for them.
        var closing: (cast: CastListener?, setupServers: [HTTPServer]) = (nil, [])
    }

    private let options: DeviceServerOptions
    /// The fleet's shared listening sockets, when the device serves its address on them.
    private let sharedPorts: SharedLoopbackPorts?
    private let certificateKey: PrivateKey?
    private let currentDate: @Sendable () -> Date
    private let state = Locked(State())

    init(
        options: DeviceServerOptions,
        sharedPorts: SharedLoopbackPorts?,
        certificateKey: PrivateKey?,
        currentDate: @escaping @Sendable () -> Date
    ) {
        self.options = options
        self.sharedPorts = sharedPorts
        self.certificateKey = certificateKey
        self.currentDate = currentDate
    }

    deinit {
        state.withLock { state in
            state.cast?.close()
            for server in state.setupServers { server.close() }
        }
    }

    /// The ports listened on, once open.
    var ports: VirtualDevice.Ports? { state.withLock { $0.ports } }

    /// The TLS certificate presented, once open.
    var certificate: Certificate? { state.withLock { $0.certificate } }

    /// When the listeners opened, on the device's clock.
    var startedAt: CastInstant? { state.withLock { $0.startedAt } }

    /// Whether the listeners are open.
    var isOpen: Bool { state.withLock { $0.ports != nil } }

    /// Generates the TLS certificate (named `commonName`) and opens the three listeners.
    /// - Parameters:
    ///   - adopt: takes each sender connection accepted on the Cast port.
    ///   - routes: the setup server's routes, for HTTPS (`true`) or plain HTTP.
    ///   - now: the device's clock reading, kept as the start time.
    /// - Throws: `TCPError` (address in use or not available), `TLSError` or `OpenSSLError`
    ///   (certificate generation); nothing stays open then.
    func open(
        commonName: String,
        adopt: @escaping @Sendable (CastConnection) -> Void,
        routes: (_ secure: Bool) -> HTTPRoutes,
        at now: CastInstant
    ) throws -> (VirtualDevice.Ports, Certificate) {
        let validity = Double(options.certificateValidity.components.seconds)
        // A minute in the past, so a sender whose clock is slightly behind still accepts it.
        let identity = try SelfSignedCertificate.generate(
            commonName: commonName,
            notBefore: currentDate().addingTimeInterval(-60),
            validity: validity,
            key: certificateKey ?? VirtualDeviceTLSKey.shared.get()
        )
        var tls = TLSServerConfiguration(identity)
        tls.handshakeTimeout = options.requestTimeout
        let cast = try castListener(tls: tls, adopt: adopt)
        var servers: [HTTPServer] = []
        // The setup endpoints take small JSON bodies at most.
        var setup = HTTPServerConfiguration()
        setup.limits.maximumBodySize = 64 * 1024
        setup.requestTimeout = options.requestTimeout
        setup.maximumConnections = max(1, options.maximumSetupConnections)
        if options.servesSetup {
            do {
                servers.append(
                    try setupServer(port: options.httpPort, tls: nil, routes: routes(false), configuration: setup)
                )
                servers.append(
                    try setupServer(port: options.httpsPort, tls: tls, routes: routes(true), configuration: setup)
                )
            } catch {
                for server in servers { server.close() }
                cast.close()
                throw error
            }
        }
        let ports = VirtualDevice.Ports(
            cast: cast.localAddress.port,
            http: servers.first?.localAddress.port ?? 0,
            https: servers.last?.localAddress.port ?? 0
        )
        state.withLock { state in
            state.cast = cast
            state.setupServers = servers
            state.ports = ports
            state.startedAt = now
            state.certificate = identity.certificate
        }
        return (ports, identity.certificate)
    }

    /// Stops listening; ``waitUntilClosed()`` waits until the ports can be bound again.
    func close() {
        let (cast, servers) = state.withLock { state in
            let taken = (state.cast, state.setupServers)
            // A second close finds nothing open and leaves the first one's listeners to wait for.
            if taken.0 != nil { state.closing = taken }
            state.cast = nil
            state.setupServers = []
            return taken
        }
        cast?.close()
        for server in servers { server.close() }
    }

    /// Waits until the listeners ``close()`` closed have let go of their ports.
    func waitUntilClosed() async {
        let (cast, servers) = state.withLock { state in
            defer { state.closing = (nil, []) }
            return state.closing
        }
        await cast?.closeAndWait()
        for server in servers { await server.closeAndWait() }
    }

    private func castListener(
        tls: TLSServerConfiguration,
        adopt: @escaping @Sendable (CastConnection) -> Void
    ) throws -> CastListener {
        var configuration = CastConnectionConfiguration()
        configuration.sendQueueLimit = options.sendQueueLimit
        configuration.frameTimeout = options.frameTimeout
        let maximumConnections = max(1, options.maximumSenderConnections)
        if let sharedPorts {
            return try CastListener(
                on: sharedPorts.listener(port: options.castPort, role: "cast"),
                address: options.address,
                tls: tls,
                configuration: configuration,
                maximumConnections: maximumConnections,
                handler: adopt
            )
        }
        return try CastListener(
            address: try SocketAddress(ipAddress: options.address, port: options.castPort),
            tls: tls,
            configuration: configuration,
            maximumConnections: maximumConnections,
            handler: adopt
        )
    }

    /// The setup server on `port`: HTTPS when `tls` is given.
    private func setupServer(
        port: Int,
        tls: TLSServerConfiguration?,
        routes: HTTPRoutes,
        configuration: HTTPServerConfiguration
    ) throws -> HTTPServer {
        if let sharedPorts {
            return try HTTPServer(
                on: sharedPorts.listener(port: port, role: tls == nil ? "http" : "https"),
                address: options.address,
                tls: tls,
                routes: routes,
                configuration: configuration
            )
        }
        return try HTTPServer(
            address: try SocketAddress(ipAddress: options.address, port: port),
            tls: tls,
            routes: routes,
            configuration: configuration
        )
    }
}
