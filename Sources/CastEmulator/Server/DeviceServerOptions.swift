import CastTime

/// Where a virtual device listens and what its setup server reports beyond its identity.
public struct DeviceServerOptions: Sendable, Equatable {
    /// The numeric IP address every listener binds to, such as `127.0.0.2`.
    public var address: String
    /// The port of the TLS Cast channel; 8009 unless changed, 0 for an ephemeral port.
    public var castPort: Int
    /// The port of the plain HTTP setup server; 8008 unless changed, 0 for an ephemeral port.
    public var httpPort: Int
    /// The port of the HTTPS setup server; 8443 unless changed, 0 for an ephemeral port.
    public var httpsPort: Int
    /// The locale reported by the setup server.
    public var locale: String
    /// The time zone reported by the setup server.
    public var timeZone: String
    /// The firmware version reported by the setup server.
    public var firmwareVersion: String
    /// Whether the plain HTTP setup server answers `/control/…` fault-injection requests.
    /// Only honoured when ``address`` is a loopback address (`127.x.x.x`).
    public var controlEndpointEnabled: Bool
    /// How long the device's self-signed TLS certificate is valid from its start.
    public var certificateValidity: Duration
    /// The most bytes waiting to be sent to one sender (for the socket, or behind a reply
    /// delay) before its connection is closed: a sender that stops reading cannot grow memory.
    public var sendQueueLimit: Int
    /// The longest one frame from a sender may take from its first byte to its last; a
    /// sender that trickles bytes (slowloris) is disconnected. `nil` waits for ever.
    /// Defaults to 10 s.
    public var frameTimeout: Duration?
    /// The longest a sender may take over its TLS handshake, and an HTTP client to send a
    /// whole request to the setup endpoints; a slower one is disconnected. Defaults to 10 s.
    public var requestTimeout: Duration
    /// Whether the device serves the setup HTTP and HTTPS endpoints. A speaker group has
    /// none of its own: it lives on a Cast port of its leader, whose setup server lists it.
    public var servesSetup = true
    /// The most media reads (the probes of `LOAD`s and of text tracks) the device runs at
    /// once; further ones wait their turn. A read that a newer `LOAD`, a `STOP` or the end of
    /// its item made useless is cancelled at once and its connection closed, as a receiver
    /// drops the requests of media it no longer plays. Defaults to 4; at least 1.
    public var mediaFetchLimit = 4
    /// The longest one media read may take altogether (every request it makes: redirects,
    /// ranges, a playlist's variant); a slower one fails the `LOAD` with the network error of
    /// its kind. Each request also has its own 10 s limit. Defaults to 30 s.
    public var mediaProbeDeadline: Duration = .seconds(30)
    /// The longest one request of a media read may take (connecting, sending, receiving).
    /// Defaults to 10 s.
    public var mediaRequestTimeout: Duration = .seconds(10)

    /// The most sender connections (TLS handshakes included) the Cast port holds at once; a
    /// further one is closed as it is accepted. Senders use one or two each; defaults to 64.
    public var maximumSenderConnections = 64
    /// The most connections each setup server (HTTP and HTTPS) holds at once, screens
    /// included; a further one is closed as it is accepted. Defaults to 64.
    public var maximumSetupConnections = 64

    /// Whether the plain HTTP setup server shows the device's TV screen at `/` (with its
    /// event stream at `/screen/events` and its state at `/screen/state`); `nil`, the
    /// default, shows it on loopback addresses (`127.x.x.x`) only.
    public var screen: Bool? = nil
    /// The most browsers that follow the screen's event stream at once; a further one is
    /// answered 503. Defaults to 8; at least 1.
    public var screenClientLimit = 8
    /// The most bytes of screen events one browser may leave unread: a browser further behind
    /// skips to the newest state, and one whose socket queue passes it is dropped. Defaults
    /// to 256 KiB.
    public var screenBufferLimit = 256 * 1024

    /// Whether the device serves its screen: ``screen``, or by default on loopback.
    public var servesScreen: Bool { servesSetup && (screen ?? address.hasPrefix("127.")) }

    /// Creates options with the real ports 8009, 8008 and 8443 on `address`.
    public init(address: String = "127.0.0.2") {
        self.address = address
        self.castPort = 8009
        self.httpPort = 8008
        self.httpsPort = 8443
        self.locale = "en-US"
        self.timeZone = "UTC"
        self.firmwareVersion = "1.56.500000"
        self.controlEndpointEnabled = false
        self.certificateValidity = .seconds(2 * 86_400)
        self.sendQueueLimit = 1 << 20
        self.frameTimeout = .seconds(10)
        self.requestTimeout = .seconds(10)
    }

    /// Options for tests: ephemeral ports on `address`, control endpoint on.
    public static func ephemeral(address: String = "127.0.0.1") -> DeviceServerOptions {
        var options = DeviceServerOptions(address: address)
        options.castPort = 0
        options.httpPort = 0
        options.httpsPort = 0
        options.controlEndpointEnabled = true
        return options
    }
}
