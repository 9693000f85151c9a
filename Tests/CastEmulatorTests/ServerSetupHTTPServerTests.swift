import CastCore
import Testing

@testable import CastEmulator

/// The setup endpoints of a started device, over plain HTTP and HTTPS.
@Suite struct ServerSetupHTTPServerTests {
    @Test(arguments: [false, true])
    func eurekaInfoHasTheFieldsClientsRead(secure: Bool) async throws {
        let device = try await ServerTestDevices.started()
        let ports = try #require(device.ports)
        let response = try await httpExchange(
            port: secure ? ports.https : ports.http,
            request: "GET /setup/eureka_info?params=device_info,name HTTP/1.1\r\nHost: x\r\n\r\n",
            tls: secure
        )
        #expect(response.status == 200)
        #expect(response.head.contains("Content-Type: application/json"))
        let info = try JSONValue(parsing: response.body)
        #expect(info["name"] == "Test Device")
        #expect(info["ssdp_udn"] == "01234567-89ab-cdef-0123-456789abcdef")
        let deviceInfo = try #require(info["device_info"])
        #expect(deviceInfo["name"] == "Test Device")
        #expect(deviceInfo["model_name"] == "Test Model")
        #expect(deviceInfo["manufacturer"] == "Google Inc.")
        #expect(deviceInfo["ssdp_udn"] == "01234567-89ab-cdef-0123-456789abcdef")
        #expect(deviceInfo["capabilities"]?["display_supported"] == true)
        #expect(deviceInfo["capabilities"]?["multizone_supported"] == false)
        for key in [
            "version", "build_info", "ip_address", "mac_address", "locale", "timezone", "uptime", "net", "wifi",
        ] {
            #expect(info[key] != nil, "eureka_info lacks \(key)")
        }
        #expect(info["ip_address"] == "127.0.0.1")
        await device.stop()
    }

    @Test func iconIsAPNG() async throws {
        let device = try await ServerTestDevices.started()
        let response = try await httpExchange(
            port: try #require(device.ports).http,
            request: "GET /setup/icon.png HTTP/1.1\r\n\r\n"
        )
        #expect(response.status == 200 && response.head.contains("Content-Type: image/png"))
        #expect(Array(response.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let head = try await httpExchange(
            port: try #require(device.ports).http,
            request: "HEAD /setup/icon.png HTTP/1.1\r\n\r\n"
        )
        #expect(head.status == 200 && head.body.isEmpty)
        await device.stop()
    }

    @Test(arguments: [
        ("GET /nothing HTTP/1.1\r\n\r\n", 404),
        ("DELETE /setup/eureka_info HTTP/1.1\r\n\r\n", 405),
        ("BROKEN\r\n\r\n", 400),
        ("POST /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: 999999\r\n\r\n", 413),
    ])
    func badRequestsGetErrorStatuses(request: String, status: Int) async throws {
        let device = try await ServerTestDevices.started()
        let response = try await httpExchange(port: try #require(device.ports).http, request: request)
        #expect(response.status == status)
        await device.stop()
    }

    @Test func controlEndpointAppliesFaults() async throws {
        let device = try await ServerTestDevices.started()
        let port = try #require(device.ports).http
        let body = Array(#"{"ignorePings": true, "replyDelayMs": 40, "failNextLoad": true}"#.utf8)
        let response = try await httpExchange(
            port: port,
            request: "POST /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: \(body.count)\r\n\r\n",
            body: body
        )
        #expect(response.status == 200)
        let reported = try JSONValue(parsing: response.body)
        #expect(reported["ignorePings"] == true && reported["replyDelayMs"] == 40 && reported["failNextLoad"] == true)
        #expect(device.faults.ignoresPings && device.faults.failsNextLoad)
        #expect(device.replyDelay == .milliseconds(40))
        let current = try await httpExchange(
            port: port,
            request: "GET /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\n\r\n"
        )
        #expect(try JSONValue(parsing: current.body)["replyDelayMs"] == 40)
        let invalid = Array(#"{"replyDelayMs": "soon"}"#.utf8)
        let rejected = try await httpExchange(
            port: port,
            request: "POST /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: \(invalid.count)\r\n\r\n",
            body: invalid
        )
        #expect(rejected.status == 400)
        #expect(String(decoding: rejected.body, as: UTF8.self).contains("replyDelayMs"))
        await device.stop()
    }

    /// What a web page can send (a simple `text/plain` POST, no custom header) or a name
    /// rebound to the device (another `Host`) changes nothing: 403 and 421, faults as before.
    @Test func aWebPageCannotDriveTheControlEndpoint() async throws {
        let device = try await ServerTestDevices.started()
        let port = try #require(device.ports).http
        let body = Array(#"{"ignorePings": true, "refuseLaunch": true, "replyDelayMs": 600000}"#.utf8)
        let simple = try await httpExchange(
            port: port,
            request: "POST /control/faults HTTP/1.1\r\nContent-Type: text/plain\r\n"
                + "Origin: http://127.0.0.1:9\r\nContent-Length: \(body.count)\r\n\r\n",
            body: body
        )
        #expect(simple.status == 403)
        let rebound = try await httpExchange(
            port: port,
            request: "POST /control/faults HTTP/1.1\r\nHost: attacker.example:\(port)\r\nX-Cast-Control: 1\r\n"
                + "Content-Length: \(body.count)\r\n\r\n",
            body: body
        )
        #expect(rebound.status == 421)
        let read = try await httpExchange(port: port, request: "GET /control/faults HTTP/1.1\r\n\r\n")
        #expect(read.status == 403)
        let group = try await httpExchange(
            port: port,
            request: "POST /control/group HTTP/1.1\r\nContent-Length: 2\r\n\r\n",
            body: Array("{}".utf8)
        )
        #expect(group.status == 403)
        #expect(!device.faults.ignoresPings && device.replyDelay == .zero)
        await device.stop()
    }

    @Test(arguments: [
        ("127.0.0.2", "127.0.0.2:8008", true), ("127.0.0.2", "127.0.0.2", true), ("127.0.0.2", "localhost:8008", false),
        ("127.0.0.1", "localhost:8008", true), ("127.0.0.1", "LOCALHOST", true),
        ("127.0.0.2", "attacker.example", false),
        ("127.0.0.2", "127.0.0.3:8008", false), ("0.0.0.0", "192.168.1.9:8008", true), ("0.0.0.0", "tv.example", false),
        ("::1", "[::1]:8008", true), ("::1", "::1", false), ("127.0.0.2", "127.0.0.2:80x", false),
        ("127.0.0.2", "", false),
    ])
    func theHostMustNameTheDevice(address: String, host: String, accepted: Bool) {
        #expect(SetupRequestGuard.hostNamesDevice(host, address: address) == accepted)
    }

    @Test func controlEndpointIsClosedWhenDisabledAndOnHTTPS() async throws {
        let disabled = try await ServerTestDevices.started(controlEndpoint: false)
        let closed = try await httpExchange(
            port: try #require(disabled.ports).http,
            request: "GET /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\n\r\n"
        )
        #expect(closed.status == 404)
        await disabled.stop()
        let enabled = try await ServerTestDevices.started()
        let overTLS = try await httpExchange(
            port: try #require(enabled.ports).https,
            request: "GET /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\n\r\n",
            tls: true
        )
        #expect(overTLS.status == 404)
        await enabled.stop()
    }

    @Test func audioDeviceReportsNoDisplay() {
        var identity = ServerTestDevices.identity
        identity.capabilities = .audioDevice
        let info = EurekaInfo(identity: identity, options: DeviceServerOptions(address: "127.0.0.9"), uptime: 3).json
        #expect(info["device_info"]?["capabilities"]?["display_supported"] == false)
        #expect(info["ip_address"] == "127.0.0.9")
        #expect(info["uptime"] == 3)
        let mac = info["mac_address"]?.stringValue ?? ""
        #expect(mac.split(separator: ":").count == 6)
    }
}
