#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The setup document a Cast device serves at `/setup/eureka_info` (HTTP on port 8008,
/// HTTPS on 8443): its name, model and identity as the device reports them.
///
/// The document is kept whole in ``document``; the properties read the members senders use,
/// from the top level or from `device_info` (firmware differs in which it fills), and are
/// `nil` when a member is absent or not of the expected type.
///
/// ```swift
/// let info = try DeviceSetupInfo(jsonBytes: response.body)
/// info.name          // "Living Room TV"
/// info.deviceID      // the UUID of `ssdp_udn`
/// ```
public struct DeviceSetupInfo: Sendable, Hashable {
    /// The whole document as received.
    public var document: JSONValue

    /// Wraps a parsed document.
    public init(document: JSONValue) {
        self.document = document
    }

    /// Parses the document.
    /// - Throws: ``MessageDecodingError`` when the bytes are not JSON, or not a JSON object
    ///   (``MessageDecodingError/Code/wrongType``).
    public init(jsonBytes: [UInt8]) throws(MessageDecodingError) {
        let value = try JSONValue(parsing: jsonBytes, maximumDepth: 16)
        guard value.objectValue != nil else {
            throw MessageDecodingError(code: .wrongType, detail: "eureka_info is not a JSON object")
        }
        self.init(document: value)
    }

    private var deviceInfo: JSONValue? { document["device_info"] }

    private func string(_ key: String) -> String? {
        (document[key]?.stringValue ?? deviceInfo?[key]?.stringValue).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The friendly name (`name`, else `device_info.name`).
    public var name: String? { string("name") }

    /// The model (`device_info.model_name`, else a top-level `model_name`).
    public var modelName: String? {
        (deviceInfo?["model_name"]?.stringValue ?? document["model_name"]?.stringValue).flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// The manufacturer (`device_info.manufacturer`).
    public var manufacturer: String? { string("manufacturer") }

    /// The device id as a UUID, from `ssdp_udn` (dashed, or 32 hexadecimal digits); `nil`
    /// when absent or not a UUID (reporters sometimes redact it).
    public var deviceID: UUID? { string("ssdp_udn").flatMap(CastDevice.parseID) }

    /// The firmware (`cast_build_revision`, else `build_info.cast_build_revision`).
    public var castBuildRevision: String? {
        string("cast_build_revision") ?? document["build_info"]?["cast_build_revision"]?.stringValue
    }

    /// Whether the device has a display (`device_info.capabilities.display_supported`);
    /// `false` marks an audio-only device such as a speaker.
    public var displaySupported: Bool? { deviceInfo?["capabilities"]?["display_supported"]?.boolValue }

    /// A speaker group the device belongs to, as `multizone.groups[]` lists it.
    public struct Group: Sendable, Hashable {
        /// The group's name.
        public var name: String
        /// The group's id (`uuid`).
        public var id: UUID?
        /// The group's Cast port on its leader (`cast_port`).
        public var castPort: Int?
        /// `self` when this device leads the group, else the leader's `address:port`.
        public var electedLeader: String?
    }

    /// The speaker groups the device belongs to (`multizone.groups`, asked for with
    /// `params=multizone`); entries without a name are skipped, a `cast_port` outside
    /// 1...65535 is dropped.
    public var groups: [Group] {
        (document["multizone"]?["groups"]?.arrayValue ?? []).compactMap { entry in
            guard let name = entry["name"]?.stringValue else { return nil }
            let port = entry["cast_port"]?.intValue.flatMap { (1...65_535).contains($0) ? $0 : nil }
            return Group(
                name: name,
                id: entry["uuid"]?.stringValue.flatMap(CastDevice.parseID),
                castPort: port,
                electedLeader: entry["elected_leader"]?.stringValue
            )
        }
    }
}
