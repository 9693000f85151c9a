import Foundation

/// Who a virtual device is and where it listens.
public struct VirtualDeviceConfiguration: Sendable, Equatable {
    /// The friendly name shown by senders (`fn`, eureka `name`).
    public var name: String
    /// The device's unique identifier (`id` without dashes, eureka `ssdp_udn` with them).
    public var id: UUID
    /// The model name (`md`, eureka `device_info.model_name`).
    public var model: String
    /// The manufacturer (eureka `device_info.manufacturer`).
    public var manufacturer: String
    /// The capability bits (`ca`); without ``DeviceCapabilities/videoOut`` senders treat the device as a speaker.
    public var capabilities: DeviceCapabilities
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
    /// Whether the setup server on the plain HTTP port answers `/control/…` fault-injection
    /// requests. Only honoured when ``address`` is a loopback address.
    public var controlEndpointEnabled: Bool
    /// How long the device's self-signed TLS certificate is valid from its start.
    public var certificateValidity: Duration
    /// The largest number of frames queued for one sender before its connection is closed.
    public var sendQueueLimit: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - name: the friendly name.
    ///   - id: the unique identifier; a random one unless given.
    ///   - model: the model name.
    ///   - manufacturer: the manufacturer.
    ///   - capabilities: the capability bits; video and audio out unless given.
    ///   - address: the IP address to bind; `127.0.0.2` unless given.
    public init(
        name: String,
        id: UUID = UUID(),
        model: String = "Chromecast",
        manufacturer: String = "Google Inc.",
        capabilities: DeviceCapabilities = .videoDevice,
        address: String = "127.0.0.2"
    ) {
        self.name = name
        self.id = id
        self.model = model
        self.manufacturer = manufacturer
        self.capabilities = capabilities
        self.address = address
        self.castPort = 8009
        self.httpPort = 8008
        self.httpsPort = 8443
        self.locale = "en-US"
        self.timeZone = "UTC"
        self.firmwareVersion = "1.56.500000"
        self.controlEndpointEnabled = false
        self.certificateValidity = .seconds(2 * 86_400)
        self.sendQueueLimit = 1024
    }

    /// The identifier as 32 lowercase hexadecimal digits, as in the TXT key `id`.
    public var compactID: String {
        id.uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
