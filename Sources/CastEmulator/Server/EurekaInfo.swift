import CastCore
import Foundation

/// The document a device serves at `/setup/eureka_info`: the fields pychromecast and catt
/// read (`name`, `ssdp_udn`, `device_info`…) and every top-level member the documents of
/// real devices carry (Chromecast, Google Home, Shield TV captures), with values that fit
/// a device on a loopback address.
struct EurekaInfo: Sendable {
    var identity: DeviceIdentity
    var options: DeviceServerOptions
    /// Seconds since the device started.
    var uptime: Double
    /// The class of device, for `multizone_supported`.
    var profile: DeviceProfile = .generic
    /// The speaker groups the device belongs to (`multizone.groups`).
    var groups: [SpeakerGroupReference] = []

    /// A MAC-like address derived from the device identifier (locally administered).
    static func macAddress(for deviceID: String) -> String {
        var hex = Array(deviceID.lowercased().filter(\.isHexDigit))
        while hex.count < 12 { hex.insert("0", at: 0) }
        var mac = stride(from: hex.count - 12, to: hex.count, by: 2).map {
            UInt8(String(hex[$0...$0 + 1]), radix: 16) ?? 0
        }
        mac[0] = (mac[0] | 0x02) & 0xFE
        return mac.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The `ssdp_udn` form of the identifier: lowercase with dashes.
    var udn: String { identity.udn ?? identity.deviceID }

    var json: JSONValue {
        let c = identity
        let mac = Self.macAddress(for: c.deviceID)
        let displaySupported = c.capabilities.contains(.videoOut)
        let capabilities: JSONValue = [
            "display_supported": .bool(displaySupported),
            "audio_surround_mode_supported": false,
            "hdmi_prefer_50hz_supported": false,
            "multizone_supported": .bool(profile.supportsMultizone),
            "stats_supported": false,
            "audio_hdr_supported": false,
        ]
        let deviceInfo: JSONValue = [
            "name": .string(c.friendlyName),
            "model_name": .string(c.modelName),
            "manufacturer": .string(c.manufacturer),
            "product_name": .string(c.modelName.lowercased().replacingOccurrences(of: " ", with: "_")),
            "ssdp_udn": .string(udn),
            "cloud_device_id": .string(c.deviceID.uppercased()),
            "mac_address": .string(mac),
            "uptime": .double(uptime),
            "capabilities": capabilities,
        ]
        let o = options
        let build = o.firmwareVersion.split(separator: ".").last.map(String.init) ?? o.firmwareVersion
        let country = o.locale.split(separator: "-").dropFirst().first.map { String($0).uppercased() } ?? "US"
        return [
            "name": .string(c.friendlyName),
            "ssdp_udn": .string(udn),
            "version": 12,
            "build_version": .string(build),
            "cast_build_revision": .string(o.firmwareVersion),
            "build_info": [
                "build_type": 2,
                "cast_build_revision": .string(o.firmwareVersion),
                "cast_control_version": 1,
                "release_track": "stable-channel",
                "system_build_number": "1",
            ],
            "ip_address": .string(o.address),
            "mac_address": .string(mac),
            "locale": .string(o.locale),
            "timezone": .string(o.timeZone),
            "uptime": .double(uptime),
            "hotspot_bssid": .string(mac),
            "ssid": "swift-cast-loopback",
            "net": [
                "ethernet_connected": true,
                "ip_address": .string(o.address),
                "online": true,
            ],
            "wifi": [
                "has_changes": false,
                "ssid": "swift-cast-loopback",
                "bssid": .string(mac),
                "signal_level": -40,
                "noise_level": -90,
                "wpa_configured": true,
                "wpa_state": 10,
            ],
            "device_info": deviceInfo,
            "multizone": [
                "groups": .array(
                    groups.map { group in
                        [
                            "name": .string(group.name),
                            "uuid": .string(group.groupID),
                            "elected_leader": .string(
                                group.isLeader ? "self" : "\(group.leaderAddress):\(group.castPort)"
                            ),
                            "cast_port": .integer(group.castPort),
                        ]
                    }
                ),
                "dynamic_groups": [],
            ],
            // The rest of what real devices send: setup and network state.
            "bssid": .string(mac),
            "closed_caption": [:],
            "connected": true,
            "ethernet_connected": true,
            "has_update": false,
            "location": ["country_code": .string(country), "latitude": 255, "longitude": 255],
            "noise_level": -90,
            "opt_in": ["crash": false, "opencast": false, "stats": false],
            "public_key": "",
            "release_track": "stable-channel",
            "setup_state": 60,
            "setup_stats": [
                "historically_succeeded": true, "num_check_connectivity": 0, "num_connect_wifi": 0,
                "num_connected_wifi_not_saved": 0, "num_initial_eureka_info": 0, "num_obtain_ip": 0,
            ],
            "signal_level": -40,
            "time_format": 1,
            "tos_accepted": true,
            "uma_client_id": "",
            "wpa_configured": true,
            "wpa_id": 0,
            "wpa_state": 10,
        ]
    }

    /// The document as UTF-8 JSON.
    var bytes: [UInt8] {
        (try? JSONPayloadEncoder().encodeToBytes(json)) ?? Array("{}".utf8)
    }
}
