/// Who a virtual device says it is: in mDNS, in `/setup/eureka_info` and in its statuses.
public struct DeviceIdentity: Hashable, Sendable {
    /// The name people see, e.g. `Living Room TV` (TXT `fn`).
    public var friendlyName: String
    /// The device id: 32 lowercase hexadecimal digits (TXT `id`; `ssdp_udn` with dashes).
    public var deviceID: String
    /// The model, e.g. `Chromecast` (TXT `md`).
    public var modelName: String
    /// The manufacturer, e.g. `Google Inc.`.
    public var manufacturer: String
    /// What the device can do (TXT `ca`).
    public var capabilities: DeviceCapabilities

    /// Creates an identity.
    public init(
        friendlyName: String,
        deviceID: String,
        modelName: String = "Chromecast",
        manufacturer: String = "Google Inc.",
        capabilities: DeviceCapabilities = .videoDevice
    ) {
        self.friendlyName = friendlyName
        self.deviceID = deviceID
        self.modelName = modelName
        self.manufacturer = manufacturer
        self.capabilities = capabilities
    }

    /// The device id in UUID form with dashes, `8-4-4-4-12` (`ssdp_udn`), or `nil` when
    /// ``deviceID`` is not 32 hexadecimal digits.
    public var udn: String? {
        let hex = Array(deviceID.lowercased().filter { $0 != "-" })
        guard hex.count == 32, hex.allSatisfy(\.isHexDigit) else { return nil }
        var groups: [String] = []
        var start = 0
        for length in [8, 4, 4, 4, 12] {
            groups.append(String(hex[start..<start + length]))
            start += length
        }
        return groups.joined(separator: "-")
    }
}
