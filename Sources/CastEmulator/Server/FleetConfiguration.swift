public import CastAuth
import CastCore
public import CastCrypto
import CastNet
import Foundation

/// The devices a ``DeviceFleet`` runs: for each, the engine configuration and where it listens.
///
/// Built from command-line options (``generated(count:name:firstAddress:model:)``) or from a
/// JSON file (`init(json:)`) of this form, where every member but `devices[].name` is optional:
///
/// ```json
/// {
///   "mdns": ["lo"],
///   "apps": [
///     {"appId": "4F8B3483", "displayName": "Hello", "namespaces": ["urn:x-cast:com.example.hello"],
///      "statusText": "Saying hello", "androidTVAppId": "2C6A6E3D"}
///   ],
///   "devices": [
///     {"name": "Living Room TV", "id": "0123456789abcdef0123456789abcdef",
///      "model": "Chromecast", "manufacturer": "Google Inc.",
///      "capabilities": ["video_out", "audio_out"], "address": "127.0.0.2",
///      "castPort": 8009, "httpPort": 8008, "httpsPort": 8443,
///      "locale": "en-US", "timezone": "UTC", "volume": 1.0, "idleScreen": true,
///      "bufferingMs": 200, "media": "simulate", "mediaDurationSeconds": 600, "statusIntervalSeconds": 1,
///      "control": true, "screen": true, "auth": "response",
///      "apps": [ … same form as above, for this device only … ]}
///   ],
///   "groups": [{"name": "Kitchen group", "members": ["Kitchen Speaker", "Hall Speaker"],
///               "leader": "Kitchen Speaker", "id": "<32 hex digits>", "castPort": 32101}],
///   "authChain": "/path/to/chain"
/// }
/// ```
///
/// Devices answer device-authentication challenges with an `AuthResponse` signed by the
/// process's generated chain (``VirtualDeviceAuthority/shared``), or by the chain read from the
/// `authChain` directory (`DeviceAuthChain.load(directory:)`); `"auth": "error"` makes a
/// device answer `AuthError` `INTERNAL_ERROR` instead, as a receiver without credentials does.
///
/// Every device runs the Default Media Receiver (`CC1AD845`) and Backdrop (`E8C28D3C`, the
/// idle screen unless `idleScreen` is false) plus the apps listed at the top and for it.
/// A device without `address` takes the address after the previous device's (from
/// `127.0.0.2`); `capabilities` may also be the numeric `ca` bit mask. `mdns` advertises the
/// devices over mDNS on the listed interfaces (`true` for the loopback interface only).
public struct FleetConfiguration: Sendable {
    /// One device of the fleet.
    public struct Device: Sendable {
        /// Identity, apps, volume and timing.
        public var configuration: VirtualDeviceConfiguration
        /// Address, ports and setup-server details.
        public var options: DeviceServerOptions
        /// Whether the device answers challenges with an `AuthResponse` (`false` for
        /// `"auth": "error"`).
        public var answersAuthChallenges = true

        /// The raw `auth` member, read once the whole file is parsed.
        var authValue: JSONValue?

        /// Creates a device entry.
        public init(configuration: VirtualDeviceConfiguration, options: DeviceServerOptions) {
            self.configuration = configuration
            self.options = options
        }
    }

    /// The devices, in start order.
    public var devices: [Device]
    /// The speaker groups, started after the devices (see ``validateGroups(path:)``).
    public var groups: [Group] = []
    /// Where ``DeviceFleet`` advertises the devices over mDNS: `nil` for nowhere, an empty
    /// list for the loopback interface only, else the names of the interfaces. Ignored when
    /// the fleet was given its own ``DeviceAdvertiser``.
    public var mdnsInterfaces: [String]?
    /// Whether the devices share one listening socket per port (bound to the loopback
    /// interface) instead of binding three each: what lets 10,000 devices run under a
    /// 20,000-descriptor limit. Every device must then be on a `127.x.y.z` address.
    public var sharesPorts = false

    /// Creates a fleet from device entries.
    public init(devices: [Device], mdnsInterfaces: [String]? = nil) {
        self.devices = devices
        self.mdnsInterfaces = mdnsInterfaces
    }

    /// The chain the devices sign device-auth answers with, when not the process's generated one.
    public private(set) var authChain: DeviceAuthChain?

    /// Makes every device that answers challenges with a response sign with `chain` (devices
    /// configured with `"auth": "error"` keep answering with an error).
    public mutating func useAuthChain(_ chain: DeviceAuthChain) {
        authChain = chain
        for index in devices.indices where devices[index].answersAuthChallenges {
            devices[index].configuration.deviceAuthentication = .chain(chain)
        }
    }

    /// The root senders must trust to authenticate these devices: that of ``authChain``, else
    /// that of the process's generated chain.
    public var authRoot: Certificate? { (authChain ?? VirtualDeviceAuthority.shared)?.root }

    /// `count` devices named `name`, `name 2`, `name 3`…, on consecutive IPv4 addresses from
    /// `firstAddress`, with random identifiers and the real ports.
    /// - Throws: ``FleetConfigurationError`` when `firstAddress` is not IPv4 or the
    ///   addresses run out.
    public static func generated(
        count: Int,
        name: String = "Virtual Cast",
        firstAddress: String = "127.0.0.2",
        model: String = "Chromecast"
    ) throws(FleetConfigurationError) -> FleetConfiguration {
        guard count >= 1 else {
            throw FleetConfigurationError(code: .invalidValue, path: "--devices", detail: "must be at least 1")
        }
        let addresses = try consecutiveAddresses(from: firstAddress, count: count, path: "--address")
        let devices = addresses.enumerated().map { index, address in
            let identity = DeviceIdentity(
                friendlyName: index == 0 ? name : "\(name) \(index + 1)",
                deviceID: randomDeviceID(),
                modelName: model
            )
            return Device(
                configuration: VirtualDeviceConfiguration(identity: identity, profile: DeviceProfile(model: model)),
                options: .init(address: address)
            )
        }
        return FleetConfiguration(devices: devices)
    }

    /// 32 random lowercase hexadecimal digits.
    static func randomDeviceID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// `count` IPv4 addresses from `first`, skipping last octets 0 and 255.
    static func consecutiveAddresses(
        from first: String,
        count: Int,
        path: String
    ) throws(FleetConfigurationError) -> [String] {
        let parts = first.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt32($0) }
        guard parts.count == 4, parts.allSatisfy({ $0 <= 255 }) else {
            throw FleetConfigurationError(
                code: .invalidValue,
                path: path,
                detail: "\"\(first)\" is not an IPv4 address"
            )
        }
        var value = parts.reduce(UInt32(0)) { $0 << 8 | $1 }
        var addresses: [String] = []
        while addresses.count < count {
            let last = value & 0xFF
            if last != 0 && last != 255 {
                addresses.append("\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(last)")
            }
            guard value < UInt32.max else { break }
            value += 1
        }
        guard addresses.count == count else {
            throw FleetConfigurationError(
                code: .addressesExhausted,
                path: path,
                detail: "only \(addresses.count) addresses follow \(first), \(count) needed"
            )
        }
        return addresses
    }

    // MARK: JSON

    private static let topKeys: Set<String> = ["apps", "devices", "mdns", "authChain", "auth", "groups"]
    private static let deviceKeys: Set<String> = [
        "name", "id", "model", "profile", "manufacturer", "capabilities", "address", "castPort", "httpPort",
        "httpsPort",
        "locale", "timezone", "volume", "idleScreen", "bufferingMs", "media", "mediaDurationSeconds",
        "statusIntervalSeconds",
        "control", "screen", "apps", "auth",
    ]
    private static let appKeys: Set<String> = ["appId", "displayName", "namespaces", "statusText", "androidTVAppId"]

    /// Parses a fleet description (format above).
    /// - Parameters:
    ///   - bytes: the JSON text.
    ///   - defaultMediaMode: the ``MediaMode`` of devices without a `"media"` member.
    /// - Throws: ``FleetConfigurationError`` naming the member at fault.
    public init(json bytes: [UInt8], defaultMediaMode: MediaMode = .simulate) throws(FleetConfigurationError) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes, maximumDepth: 16)
        } catch {
            throw FleetConfigurationError(code: .invalidJSON, path: "", detail: "not JSON: \(error)")
        }
        let top = try Self.object(root, path: "", keys: Self.topKeys)
        let sharedApps = try Self.apps(top["apps"], path: "apps")
        guard let deviceList = top["devices"] else {
            throw FleetConfigurationError(code: .missingValue, path: "devices", detail: "a list of devices is required")
        }
        guard let entries = deviceList.arrayValue, !entries.isEmpty else {
            throw FleetConfigurationError(code: .invalidValue, path: "devices", detail: "must be a non-empty array")
        }
        var devices: [Device] = []
        var nextAddress = "127.0.0.2"
        let sharedAuth = try Self.auth(top["auth"], path: "auth")
        for (index, entry) in entries.enumerated() {
            let path = "devices[\(index)]"
            var device = try Self.device(
                entry,
                path: path,
                sharedApps: sharedApps,
                defaultAddress: nextAddress,
                mediaMode: defaultMediaMode
            )
            if !(try Self.auth(device.authValue, path: "\(path).auth") ?? sharedAuth ?? true) {
                device.answersAuthChallenges = false
                device.configuration.deviceAuthentication = .unavailable
            }
            if let following = try? Self.consecutiveAddresses(from: device.options.address, count: 2, path: path).last {
                nextAddress = following
            }
            devices.append(device)
        }
        self.init(devices: devices, mdnsInterfaces: try Self.mdnsInterfaces(top["mdns"]))
        groups = try Self.groups(top["groups"])
        try validateGroups()
        if let directory = try Self.string(top["authChain"], path: "authChain") {
            do {
                useAuthChain(try DeviceAuthChain.load(directory: directory))
            } catch {
                throw FleetConfigurationError(code: .invalidValue, path: "authChain", detail: error.description)
            }
        }
    }

    /// `"response"` → true, `"error"` → false, absent → nil.
    private static func auth(_ value: JSONValue?, path: String) throws(FleetConfigurationError) -> Bool? {
        switch try string(value, path: path) {
        case nil: return nil
        case "response"?: return true
        case "error"?: return false
        default:
            throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be \"response\" or \"error\"")
        }
    }

    private static func mdnsInterfaces(_ value: JSONValue?) throws(FleetConfigurationError) -> [String]? {
        switch value {
        case nil: return nil
        case .bool(let flag)?: return flag ? [] : nil
        case .array(let items)?:
            let names = items.compactMap(\.stringValue)
            guard names.count == items.count, names.allSatisfy({ !$0.isEmpty }) else { break }
            return names
        default: break
        }
        throw FleetConfigurationError(
            code: .invalidValue,
            path: "mdns",
            detail: "must be true, false or an array of interface names"
        )
    }

    private static func device(
        _ value: JSONValue,
        path: String,
        sharedApps: [ReceiverAppDefinition],
        defaultAddress: String,
        mediaMode: MediaMode
    ) throws(FleetConfigurationError) -> Device {
        let object = try object(value, path: path, keys: deviceKeys)
        guard let name = try string(object["name"], path: "\(path).name"), !name.isEmpty else {
            throw FleetConfigurationError(
                code: .missingValue,
                path: "\(path).name",
                detail: "a non-empty name is required"
            )
        }
        let deviceID = try string(object["id"], path: "\(path).id") ?? randomDeviceID()
        let hexDigits = deviceID.filter { $0 != "-" }
        guard hexDigits.count == 32, hexDigits.allSatisfy(\.isHexDigit) else {
            throw FleetConfigurationError(
                code: .invalidValue,
                path: "\(path).id",
                detail: "must be 32 hexadecimal digits (dashes allowed)"
            )
        }
        let model = try string(object["model"], path: "\(path).model") ?? "Chromecast"
        var profile = DeviceProfile(model: model)
        if let name = try string(object["profile"], path: "\(path).profile") {
            let kinds = DeviceProfile.all + [.generic]
            guard let chosen = kinds.first(where: { $0.kind.rawValue == name }) else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).profile",
                    detail: "must be one of " + kinds.map(\.kind.rawValue).joined(separator: ", ")
                )
            }
            profile = chosen
        }
        var capabilities = profile.capabilities
        switch object["capabilities"] {
        case nil: break
        case .integer(let bits)? where bits >= 0: capabilities = DeviceCapabilities(rawValue: bits)
        case .array(let names)?:
            let strings = names.compactMap(\.stringValue)
            guard strings.count == names.count, let parsed = DeviceCapabilities(names: strings) else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).capabilities",
                    detail: "names must be among "
                        + DeviceCapabilities.namedBits.map(\.0).joined(separator: ", ")
                )
            }
            capabilities = parsed
        default:
            throw FleetConfigurationError(
                code: .invalidValue,
                path: "\(path).capabilities",
                detail: "must be a bit mask or an array of names"
            )
        }
        let identity = DeviceIdentity(
            friendlyName: name,
            deviceID: hexDigits.lowercased(),
            modelName: model,
            manufacturer: try string(object["manufacturer"], path: "\(path).manufacturer") ?? "Google Inc.",
            capabilities: capabilities
        )
        var configuration = VirtualDeviceConfiguration(identity: identity, profile: profile)
        configuration.identity.capabilities = capabilities
        configuration.mediaMode = mediaMode
        configuration.applications += sharedApps + (try apps(object["apps"], path: "\(path).apps"))
        if let idle = object["idleScreen"] {
            guard let flag = idle.boolValue else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).idleScreen",
                    detail: "must be true or false"
                )
            }
            if !flag { configuration.idleScreenAppID = nil }
        }
        if let volume = try number(object["volume"], path: "\(path).volume", range: 0...1) {
            configuration.volume = Volume(level: volume, muted: false)
        }
        if let buffering = try number(object["bufferingMs"], path: "\(path).bufferingMs", range: 0...60_000) {
            configuration.bufferingDelay = .milliseconds(Int(buffering))
        }
        if let media = object["media"] {
            guard let name = media.stringValue, let mode = MediaMode(rawValue: name) else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).media",
                    detail: "must be \"fetch\", \"auto\" or \"simulate\""
                )
            }
            configuration.mediaMode = mode
        }
        if let duration = try number(
            object["mediaDurationSeconds"],
            path: "\(path).mediaDurationSeconds",
            range: 1...86_400 * 7
        ) {
            configuration.defaultMediaDuration = duration
        }
        if let interval = try number(
            object["statusIntervalSeconds"],
            path: "\(path).statusIntervalSeconds",
            range: 0.1...3600
        ) {
            configuration.statusInterval = .milliseconds(Int((interval * 1000).rounded()))
        }
        let address = try string(object["address"], path: "\(path).address") ?? defaultAddress
        var options = DeviceServerOptions(address: address)
        options.castPort = try port(object["castPort"], path: "\(path).castPort") ?? options.castPort
        options.httpPort = try port(object["httpPort"], path: "\(path).httpPort") ?? options.httpPort
        options.httpsPort = try port(object["httpsPort"], path: "\(path).httpsPort") ?? options.httpsPort
        options.locale = try string(object["locale"], path: "\(path).locale") ?? options.locale
        options.timeZone = try string(object["timezone"], path: "\(path).timezone") ?? options.timeZone
        if let control = object["control"] {
            guard let flag = control.boolValue else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).control",
                    detail: "must be true or false"
                )
            }
            options.controlEndpointEnabled = flag
        }
        if let screen = object["screen"] {
            guard let flag = screen.boolValue else {
                throw FleetConfigurationError(
                    code: .invalidValue,
                    path: "\(path).screen",
                    detail: "must be true or false"
                )
            }
            options.screen = flag
        }
        var device = Device(configuration: configuration, options: options)
        device.authValue = object["auth"]
        return device
    }

    private static func apps(
        _ value: JSONValue?,
        path: String
    ) throws(FleetConfigurationError) -> [ReceiverAppDefinition] {
        guard let value else { return [] }
        guard let list = value.arrayValue else {
            throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be an array of apps")
        }
        var apps: [ReceiverAppDefinition] = []
        for (index, entry) in list.enumerated() {
            let itemPath = "\(path)[\(index)]"
            let object = try object(entry, path: itemPath, keys: appKeys)
            guard let appID = try string(object["appId"], path: "\(itemPath).appId"), !appID.isEmpty else {
                throw FleetConfigurationError(
                    code: .missingValue,
                    path: "\(itemPath).appId",
                    detail: "an app id is required"
                )
            }
            var namespaces: [CastNamespace] = []
            if let list = object["namespaces"] {
                guard let names = list.arrayValue?.compactMap(\.stringValue), names.count == list.arrayValue?.count,
                    names.allSatisfy({ $0.hasPrefix("urn:x-cast:") })
                else {
                    throw FleetConfigurationError(
                        code: .invalidValue,
                        path: "\(itemPath).namespaces",
                        detail: "must be an array of \"urn:x-cast:…\" strings"
                    )
                }
                namespaces = names.map { CastNamespace(rawValue: $0) }
            }
            let androidTV = try string(object["androidTVAppId"], path: "\(itemPath).androidTVAppId")
            apps.append(
                ReceiverAppDefinition(
                    appID: appID,
                    displayName: try string(object["displayName"], path: "\(itemPath).displayName") ?? appID,
                    namespaces: namespaces,
                    statusText: try string(object["statusText"], path: "\(itemPath).statusText"),
                    androidTV: androidTV.map { .init(nativeAppID: $0) }
                )
            )
        }
        return apps
    }

    private static func object(
        _ value: JSONValue,
        path: String,
        keys: Set<String>
    ) throws(FleetConfigurationError) -> [String: JSONValue] {
        guard let object = value.objectValue else {
            throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be a JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            let prefix = path.isEmpty ? "" : "\(path)."
            throw FleetConfigurationError(code: .unknownMember, path: prefix + unknown, detail: "unknown member")
        }
        return object
    }

    private static func string(_ value: JSONValue?, path: String) throws(FleetConfigurationError) -> String? {
        guard let value else { return nil }
        guard let string = value.stringValue else {
            throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be a string")
        }
        return string
    }

    private static func number(
        _ value: JSONValue?,
        path: String,
        range: ClosedRange<Double>
    ) throws(FleetConfigurationError) -> Double? {
        guard let value else { return nil }
        guard let number = value.doubleValue, range.contains(number) else {
            throw FleetConfigurationError(
                code: .invalidValue,
                path: path,
                detail: "must be a number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }

    private static func port(_ value: JSONValue?, path: String) throws(FleetConfigurationError) -> Int? {
        guard let value else { return nil }
        guard let port = value.intValue, (0...65_535).contains(port) else {
            throw FleetConfigurationError(code: .invalidValue, path: path, detail: "must be a port from 0 to 65535")
        }
        return port
    }
}
