import CastCore
import CastCrypto
import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// A fleet whose devices share one listening socket per port: each device still answers on
/// its own address, with its own name and certificate, as if it had bound its own ports.
@Suite struct ServerSharedPortsTests {
    private static func configuration(addresses: [String]) -> FleetConfiguration {
        let devices = addresses.enumerated().map { index, address in
            let identity = DeviceIdentity(
                friendlyName: "Shared \(index + 1)",
                deviceID: FleetConfiguration.randomDeviceID()
            )
            var configuration = VirtualDeviceConfiguration(identity: identity)
            configuration.mediaMode = .simulate
            return FleetConfiguration.Device(configuration: configuration, options: .forTests(address: address))
        }
        var fleet = FleetConfiguration(devices: devices)
        fleet.sharesPorts = true
        return fleet
    }

    @Test func devicesOnSharedPortsAnswerEachOnItsOwnAddress() async throws {
        let addresses = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
        let fleet = DeviceFleet()
        let devices = try await fleet.start(Self.configuration(addresses: addresses))
        let ports = try devices.map { try #require($0.ports) }
        // One port per role, shared by all three.
        #expect(ports.allSatisfy { $0 == ports[0] })
        #expect(devices.map(\.options.address) == addresses)
        let port = try #require(ports.first)

        for device in devices.reversed() {
            let address = device.options.address
            let info = try await HTTPClient().get("http://\(address):\(port.http)/setup/eureka_info")
            let json = try JSONValue(parsing: info.body)
            #expect(json["name"]?.stringValue == device.configuration.identity.friendlyName)
            let secure = try await HTTPClient().get("https://\(address):\(port.https)/setup/eureka_info")
            #expect(secure.status.code == 200)

            let sender = try await TestSender(port: port.cast, address: address)
            #expect(sender.connection.peerCertificateDER == device.certificate?.derBytes)
            try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":7}"#)
            let status = try await sender.next(namespace: .receiver, type: "RECEIVER_STATUS")
            #expect(status["requestId"]?.intValue == 7)
            sender.connection.close()
        }
        #expect(devices.map(\.connectionCount).allSatisfy { $0 <= 1 })

        await fleet.stop()
        // The shared sockets are gone with the fleet.
        await #expect(throws: (any Error).self) {
            _ = try await TestSender(port: port.cast, address: addresses[0])
        }
    }

    @Test func sharedPortsRefuseAnAddressOffLoopback() async throws {
        let fleet = DeviceFleet()
        await #expect {
            try await fleet.start(Self.configuration(addresses: ["127.0.0.2", "192.0.2.10"]))
        } throws: { error in
            (error as? FleetConfigurationError)?.path == "devices[1].address"
        }
        #expect(await fleet.devices.isEmpty)
    }
}
