import CastCore
import CastNet
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// Faults switched on through the device's control endpoint (HTTP on its own socket) and seen
/// by a sender over real TLS, with the real engine behind. The faults themselves, switched
/// through the library, are tested in memory (`DeviceFaultsInMemoryTests`).
@Suite struct ServerFaultInjectionTests {
    static func startDevice() async throws -> VirtualDevice {
        let identity = DeviceIdentity(friendlyName: "Faulty", deviceID: "ffeeddccbbaa99887766554433221100")
        var configuration = VirtualDeviceConfiguration(identity: identity)
        configuration.bufferingDelay = .zero
        // The test sender answers no PING: a slow run must not outlast the liveness timeout.
        configuration.livenessTimeout = TestTiming.patience
        let device = VirtualDevice(
            configuration: configuration,
            options: .forTests(),
            certificateKey: ServerTestDevices.sharedKey
        )
        try await device.start()
        return device
    }

    /// Sends a request and returns the reply carrying its request id, skipping the rest.
    static func request(
        _ sender: TestSender,
        namespace: CastNamespace,
        destination: String = "receiver-0",
        _ json: String,
        requestID: Int
    ) async throws -> JSONValue {
        try await sender.send(namespace: namespace, json, destination: destination)
        while true {
            let message = try #require(try await sender.receive(), "closed while waiting for request \(requestID)")
            guard let payload = try? JSONValue(parsing: message.payloadUTF8 ?? "") else { continue }
            if payload["requestId"]?.intValue == requestID { return payload }
        }
    }

    @Test func refuseLaunchThroughTheControlEndpoint() async throws {
        let device = try await Self.startDevice()
        let ports = try #require(device.ports)
        let body = Array(#"{"refuseLaunch": "CANCELLED"}"#.utf8)
        let response = try await httpExchange(
            port: ports.http,
            request: "POST /control/faults HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: \(body.count)\r\n\r\n",
            body: body
        )
        #expect(response.status == 200)
        let sender = try await TestSender(port: ports.cast)
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        let refused = try await Self.request(
            sender,
            namespace: .receiver,
            #"{"type":"LAUNCH","appId":"CC1AD845","requestId":3}"#,
            requestID: 3
        )
        #expect(refused["type"] == "LAUNCH_ERROR" && refused["reason"] == "CANCELLED")
        sender.close()
        await device.stop()
    }
}
