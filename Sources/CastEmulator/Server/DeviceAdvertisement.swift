import Foundation

/// What a device's mDNS advertisement carries: the service instance, where it listens, the
/// TXT record of a Cast device and the receiver apps it hosts.
public struct DeviceAdvertisement: Sendable, Equatable {
    /// The service instance name, such as `Chromecast-0123456789abcdef0123456789abcdef`.
    public var instanceName: String
    /// The IP address of the device.
    public var address: String
    /// The port of the Cast channel (SRV port).
    public var port: Int
    /// The TXT keys in advertisement order: `id`, `cd`, `rm`, `ve`, `md`, `ic`, `fn`, `ca`,
    /// `st`, `bs`, `nf`, `rs`.
    public var txt: [(key: String, value: String)]
    /// The receiver app IDs the device hosts, each advertised as a DNS-SD subtype
    /// (`_CC1AD845._sub._googlecast._tcp.local`).
    public var applicationIDs: [String]

    /// Creates an advertisement.
    public init(
        instanceName: String,
        address: String,
        port: Int,
        txt: [(key: String, value: String)],
        applicationIDs: [String] = []
    ) {
        self.instanceName = instanceName
        self.address = address
        self.port = port
        self.txt = txt
        self.applicationIDs = applicationIDs
    }

    /// The value of TXT key `key`.
    public subscript(key: String) -> String? {
        txt.first { $0.key == key }?.value
    }

    public static func == (lhs: DeviceAdvertisement, rhs: DeviceAdvertisement) -> Bool {
        lhs.instanceName == rhs.instanceName && lhs.address == rhs.address && lhs.port == rhs.port
            && lhs.txt.map(\.key) == rhs.txt.map(\.key) && lhs.txt.map(\.value) == rhs.txt.map(\.value)
            && lhs.applicationIDs == rhs.applicationIDs
    }

    /// The advertisement of a device with `identity`, listening on `address:port`, in `status`,
    /// hosting the apps `applicationIDs`.
    init(
        identity: DeviceIdentity,
        address: String,
        port: Int,
        status: DeviceAdvertisedStatus,
        applicationIDs: [String] = []
    ) {
        let mac = EurekaInfo.macAddress(for: identity.deviceID).replacingOccurrences(of: ":", with: "")
        self.init(
            instanceName: "\(identity.modelName.replacingOccurrences(of: " ", with: "-"))-\(identity.deviceID)",
            address: address,
            port: port,
            txt: [
                ("id", identity.deviceID),
                ("cd", identity.deviceID.uppercased()),
                ("rm", ""),
                ("ve", "05"),
                ("md", identity.modelName),
                ("ic", "/setup/icon.png"),
                ("fn", identity.friendlyName),
                ("ca", String(identity.capabilities.rawValue)),
                ("st", status.isBusy ? "1" : "0"),
                ("bs", mac),
                ("nf", "1"),
                ("rs", status.statusText),
            ],
            applicationIDs: applicationIDs
        )
    }
}
