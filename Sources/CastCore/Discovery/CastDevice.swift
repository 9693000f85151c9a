#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A Cast device found on the network, as described by its DNS-SD service
/// (`_googlecast._tcp`): the TXT attributes, the SRV port and host, and the host's addresses.
public struct CastDevice: Hashable, Sendable, Identifiable {
    /// The receiver status announced in the TXT key `st`.
    public struct Status: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// No receiver application is running.
        public static let idle = Status(rawValue: 0)
        /// A receiver application is running and may be joined.
        public static let busy = Status(rawValue: 1)

        public var description: String {
            switch self {
            case .idle: "idle"
            case .busy: "busy"
            default: "status(\(rawValue))"
            }
        }
    }

    /// The device's unique identifier (TXT `id`, 32 hex digits).
    public var id: UUID
    /// The name the user gave the device (TXT `fn`).
    public var friendlyName: String?
    /// The model name (TXT `md`), such as `Chromecast`.
    public var modelName: String?
    /// The Cast protocol version (TXT `ve`, two hex digits).
    public var protocolVersion: Int?
    /// What the device can do (TXT `ca`).
    public var capabilities: CastDeviceCapabilities
    /// Whether a receiver application is running (TXT `st`).
    public var status: Status?
    /// The running application's status text (TXT `rs`).
    public var statusText: String?
    /// The path of the device icon on its HTTP server (TXT `ic`).
    public var iconPath: String?
    /// The addresses of the device, IPv4 first.
    public var addresses: [IPAddress]
    /// The TCP port of the Cast channel (SRV port); 8009 for devices, others for groups.
    public var port: UInt16
    /// The DNS-SD service instance name, such as `Chromecast-f38e…._googlecast._tcp.local`.
    public var serviceName: String
    /// The host name the SRV record points to, such as `f38e….local`.
    public var hostName: String
    /// Every TXT attribute as received, including keys without a property here (`cd`, `bs`, `nf`, …).
    public var txt: TXTRecord
    /// The members of this speaker group, when known: mDNS does not carry them, so discovery
    /// fills them in once a session to the group has received its `MULTIZONE_STATUS` (and
    /// keeps them current with `DEVICE_ADDED` / `DEVICE_REMOVED`). Empty for a device that
    /// is not a group, and for a group whose members are not known yet.
    public var groupMembers: [GroupReference]
    /// The speaker groups this device belongs to, when known: learned from the device's
    /// `CASTING_GROUPS`, its setup document (`multizone.groups`) or a group's
    /// `MULTIZONE_STATUS` listing it. Empty when none are known.
    public var groups: [GroupReference]

    /// Another device named in this one's description: a member of a group, or a group a
    /// device belongs to. The device it names may or may not be among those discovered.
    public struct GroupReference: Hashable, Sendable, Identifiable {
        /// The device's unique id (the TXT `id` of its mDNS record).
        public var id: UUID
        /// Its friendly name as the reporting device gave it.
        public var name: String?

        /// Creates a reference.
        public init(id: UUID, name: String? = nil) {
            self.id = id
            self.name = name
        }

        /// At most this many references are kept per device; further ones are dropped.
        public static let maximumCount = 64
        /// A longer name is cut to this many characters.
        public static let maximumNameLength = 256

        /// A reference from a device-supplied id and name: `nil` when the id is not 32 hex
        /// digits (dashes allowed); an empty name is dropped and a long one cut.
        public init?(deviceID: String, name: String?) {
            guard let id = CastDevice.parseID(deviceID) else { return nil }
            let trimmed = name.map { String($0.prefix(Self.maximumNameLength)) }
            self.init(id: id, name: trimmed?.isEmpty == true ? nil : trimmed)
        }

        /// `references` without repeated ids (the first kept), at most ``maximumCount``.
        public static func unique(_ references: [GroupReference]) -> [GroupReference] {
            var seen = Set<UUID>()
            return Array(references.filter { seen.insert($0.id).inserted }.prefix(maximumCount))
        }
    }

    /// Creates a device description.
    public init(
        id: UUID,
        friendlyName: String? = nil,
        modelName: String? = nil,
        protocolVersion: Int? = 5,
        capabilities: CastDeviceCapabilities = [.videoOut, .audioOut],
        status: Status? = .idle,
        statusText: String? = nil,
        iconPath: String? = "/setup/icon.png",
        addresses: [IPAddress] = [],
        port: UInt16 = 8009,
        serviceName: String = "",
        hostName: String = "",
        txt: TXTRecord = TXTRecord(),
        groupMembers: [GroupReference] = [],
        groups: [GroupReference] = []
    ) {
        self.id = id
        self.friendlyName = friendlyName
        self.modelName = modelName
        self.protocolVersion = protocolVersion
        self.capabilities = capabilities
        self.status = status
        self.statusText = statusText
        self.iconPath = iconPath
        self.addresses = addresses
        self.port = port
        self.serviceName = serviceName
        self.hostName = hostName
        self.txt = txt
        self.groupMembers = groupMembers
        self.groups = groups
    }

    /// Builds a device from its DNS-SD records.
    ///
    /// - Returns: `nil` when the TXT record has no `id` that parses as a UUID (32 hex digits,
    ///   dashes allowed); such services are not Cast devices a sender can address.
    public init?(serviceName: String, hostName: String, port: UInt16, addresses: [IPAddress], txt: TXTRecord) {
        guard let idText = txt["id"], let id = Self.parseID(idText) else { return nil }
        self.init(
            id: id,
            friendlyName: txt["fn"],
            modelName: txt["md"],
            protocolVersion: txt["ve"].flatMap { Int($0, radix: 16) },
            capabilities: CastDeviceCapabilities(rawValue: txt["ca"].flatMap { Int($0) } ?? 0),
            status: txt["st"].flatMap { Int($0) }.map(Status.init(rawValue:)),
            statusText: txt["rs"].flatMap { $0.isEmpty ? nil : $0 },
            iconPath: txt["ic"].flatMap { $0.isEmpty ? nil : $0 },
            addresses: Self.ordered(addresses),
            port: port,
            serviceName: serviceName,
            hostName: hostName,
            txt: txt
        )
    }

    /// Whether the device is a speaker group (``CastDeviceCapabilities/multizoneGroup`` in
    /// `ca`, or model `Google Cast Group`); a group is served by its leader on a port of its
    /// own (32xxx on hardware) rather than 8009.
    public var isGroup: Bool {
        capabilities.contains(.multizoneGroup) || modelName == "Google Cast Group"
    }

    /// The identifier as written in TXT `id`: 32 lowercase hex digits.
    public var idText: String {
        id.uuidString.lowercased().filter { $0 != "-" }
    }

    /// The TXT record a device advertises, with the keys Cast senders read:
    /// `id`, `cd`, `rm`, `ve`, `md`, `ic`, `fn`, `ca`, `st`, `bs`, `nf`, `rs`.
    ///
    /// `cd`, `bs`, `nf` and `rm` come from ``txt`` when present; otherwise `cd` is the
    /// uppercase id, `bs` its first 12 digits, `nf` is `1` and `rm` empty. Keys of ``txt``
    /// that have no property here are kept after them.
    public var txtRecord: TXTRecord {
        let upperID = idText.uppercased()
        var record = TXTRecord()
        record["id"] = idText
        record["cd"] = txt["cd"] ?? upperID
        record["rm"] = txt["rm"] ?? ""
        record["ve"] = Self.twoHexDigits(protocolVersion ?? 5)
        record["md"] = modelName ?? ""
        record["ic"] = iconPath ?? ""
        record["fn"] = friendlyName ?? ""
        record["ca"] = String(capabilities.rawValue)
        record["st"] = String((status ?? .idle).rawValue)
        record["bs"] = txt["bs"] ?? String(upperID.prefix(12))
        record["nf"] = txt["nf"] ?? "1"
        record["rs"] = statusText ?? ""
        for entry in txt.entries where !record.contains(entry.key) {
            record[entry.key] = String(decoding: entry.value ?? [], as: UTF8.self)
        }
        return record
    }

    /// Parses a device id: 32 hex digits, or the dashed UUID form.
    public static func parseID(_ text: String) -> UUID? {
        let hex = text.filter { $0 != "-" }
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ $0.isHexDigit }) else { return nil }
        let chars = Array(hex)
        let dashed = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
        return UUID(uuidString: dashed)
    }

    /// `value` in uppercase hexadecimal, at least two digits (`05`), as TXT `ve` is written.
    private static func twoHexDigits(_ value: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }

    private static func ordered(_ addresses: [IPAddress]) -> [IPAddress] {
        var seen = Set<IPAddress>()
        let unique = addresses.filter { seen.insert($0).inserted }
        let v4 = unique.filter { if case .v4 = $0 { true } else { false } }
        return v4 + unique.filter { if case .v6 = $0 { true } else { false } }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
