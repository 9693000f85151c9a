public import CastCore

/// A DNS-SD service to advertise with ``MDNSResponder``.
public struct MDNSService: Hashable, Sendable {
    /// The instance name, the first label of the service name, such as `Living Room TV`.
    /// At most 63 bytes of UTF-8 are used; on a name conflict it becomes `Name (2)`, `Name (3)`, ….
    public var instanceName: String
    /// The service type, such as `_googlecast._tcp` (the `.local` domain is added).
    public var serviceType: String
    /// Subtype labels without the leading underscore, such as receiver application IDs
    /// (`CC1AD845` advertises `_CC1AD845._sub._googlecast._tcp.local`).
    public var subtypes: [String]
    /// The host label the SRV record points to (`<hostName>.local`).
    public var hostName: String
    /// The TCP port of the service.
    public var port: UInt16
    /// The TXT attributes.
    public var txt: TXTRecord
    /// The addresses of the host; when empty, the addresses of the responder's interfaces.
    public var addresses: [IPAddress]

    /// Creates a service description.
    public init(
        instanceName: String,
        serviceType: String,
        subtypes: [String] = [],
        hostName: String,
        port: UInt16,
        txt: TXTRecord,
        addresses: [IPAddress] = []
    ) {
        self.instanceName = instanceName
        self.serviceType = serviceType
        self.subtypes = subtypes
        self.hostName = hostName
        self.port = port
        self.txt = txt
        self.addresses = addresses
    }

    /// The service a Cast device advertises: `_googlecast._tcp` with the device's TXT record,
    /// its friendly name (or model) as instance name, host `<id>.local`, and one subtype per
    /// receiver application it hosts.
    public init(castDevice device: CastDevice, applicationIDs: [String] = []) {
        let name = device.friendlyName ?? device.modelName ?? "Chromecast"
        self.init(
            instanceName: name.isEmpty ? "Chromecast" : name,
            serviceType: "_googlecast._tcp",
            subtypes: applicationIDs,
            hostName: device.hostName.isEmpty ? device.idText : String(device.hostName.prefix { $0 != "." }),
            port: device.port,
            txt: device.txtRecord,
            addresses: device.addresses
        )
    }
}
