import CastNet
import CastNetCore

/// Where a device added by address tells its name, model and id: its setup document,
/// `/setup/eureka_info` on HTTP port 8008 (where pychromecast and catt read it too).
struct DeviceSetupInfoSource: Sendable {
    /// Reads the document of `host` within `timeout`, or `nil` when the host serves none.
    let fetch: @Sendable (_ host: String, _ timeout: Duration) async -> DeviceSetupInfo?

    /// Over HTTP on port 8008, with a small body limit: a device that does not answer there
    /// is still added, under another name.
    static let http = DeviceSetupInfoSource { host, timeout in
        var client = HTTPClient()
        client.timeout = timeout
        client.maximumBodySize = 256 << 10
        let authority = host.contains(":") ? "[\(host)]:8008" : "\(host):8008"
        let url = "http://\(authority)/setup/eureka_info?params=name,device_info,multizone"
        guard
            let response = try? await client.get(url),
            response.status.code == 200
        else { return nil }
        return try? DeviceSetupInfo(jsonBytes: response.body)
    }
}
