import CastTestSupport
import Testing

@testable import CastEmulator

/// What `stop()` promises: when it returns, the device's ports can be bound again, as
/// castvideos' built-in device does when it starts on the address and port of its last run.
@Suite struct VirtualDeviceStopTests {
    @Test func aStoppedDevicesPortsCanBeBoundAgainAtOnce() async throws {
        var options = DeviceServerOptions.forTests()
        var device = VirtualDevice(
            configuration: VirtualDeviceConfiguration(identity: ServerTestDevices.identity),
            options: options,
            certificateKey: ServerTestDevices.sharedKey
        )
        let ports = try await device.start()
        options.castPort = ports.cast
        options.httpPort = ports.http
        options.httpsPort = ports.https
        // Several rounds, each with a sender connected while the device stops: a listener
        // still closing when `stop()` returned shows as an address in use.
        for round in 1...8 {
            let sender = try await TestSender(port: ports.cast)
            await device.stop()
            sender.close()
            device = VirtualDevice(
                configuration: VirtualDeviceConfiguration(identity: ServerTestDevices.identity),
                options: options,
                certificateKey: ServerTestDevices.sharedKey
            )
            let again = try await device.start()
            #expect(again == ports, "round \(round)")
        }
        await device.stop()
        #expect(device.connectionCount == 0)
    }
}
