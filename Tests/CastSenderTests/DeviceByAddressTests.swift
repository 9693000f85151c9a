import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSender

/// Devices added by address carry the name they give themselves, not their address.
@Suite struct DeviceByAddressTests {
    static func context(
        _ harness: Harness,
        setup: DeviceSetupInfo?,
        browser: (any DeviceBrowser)? = nil
    ) -> CastContext {
        var options = harness.options()
        options.disableDiscoveryAutostart = true
        return CastContext(
            options: options,
            connector: harness.device,
            clock: harness.clock,
            browser: browser,
            setupInfo: DeviceSetupInfoSource { host, _ in host == "127.0.0.1" ? setup : nil }
        )
    }

    static let speakerDocument = DeviceSetupInfo(
        document: [
            "name": "Kitchen speaker",
            "ssdp_udn": "ecdd1875-99fa-75be-deed-71691385bc70",
            "device_info": [
                "model_name": "Google Nest Mini", "manufacturer": "Google Inc.",
                "capabilities": ["display_supported": false],
            ],
        ]
    )

    @Test func theSetupDocumentNamesTheDevice() async throws {
        let harness = Harness()
        let context = Self.context(harness, setup: Self.speakerDocument)
        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        #expect(device.friendlyName == "Kitchen speaker")
        #expect(device.id == UUID(uuidString: "ecdd1875-99fa-75be-deed-71691385bc70"))
        #expect(device.modelName == "Google Nest Mini")
        #expect(device.capabilities.contains(.audioOut) && !device.capabilities.contains(.videoOut))
        // The session carries it: what the CLI and the app show.
        let session = try await context.sessionManager.startSession(with: device)
        #expect(session.device.friendlyName == "Kitchen speaker")
        await context.sessionManager.endSession()
    }

    @Test func withoutADocumentDiscoveryOrTheAddressNamesIt() async throws {
        let harness = Harness()
        // Nothing on 8008: the address, and a stable id for it.
        var context = Self.context(harness, setup: nil)
        var device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        #expect(device.friendlyName == "127.0.0.1:8009")
        #expect(device.id == DiscoveryManager.stableID(host: "127.0.0.1", port: 8009))
        // A name given by the caller wins over everything.
        context = Self.context(harness, setup: Self.speakerDocument)
        device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Den")
        #expect(device.friendlyName == "Den")
        // Discovery saw the device at that address: its mDNS name and id, listed once.
        let browser = ScriptedBrowser()
        context = Self.context(harness, setup: nil, browser: browser)
        try context.discoveryManager.startDiscovery()
        let advertised = CastDevice(
            id: UUID(),
            friendlyName: "Hall TV",
            modelName: "Chromecast",
            addresses: [IPAddress("127.0.0.1")!],
            port: 8009
        )
        browser.announce(advertised)
        await harness.drain()
        #expect(context.discoveryManager.devices.count == 1)
        device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        #expect(device.friendlyName == "Hall TV")
        #expect(device.id == advertised.id)
        #expect(context.discoveryManager.devices.map(\.id) == [advertised.id])
    }
}
