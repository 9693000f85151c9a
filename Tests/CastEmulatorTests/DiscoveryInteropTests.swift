import CastCore
import CastEmulator
import CastNet
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An ``MDNSBrowser`` on the loopback interface (IPv4), with every event it reported kept
/// for the test to wait on.
final class LoopbackBrowser: Sendable {
    let browser: MDNSBrowser
    private let store = Store()
    private let consumer: Task<Void, Never>

    private final class Store: Sendable {
        let events = Locked<[MDNSBrowser.Event]>([])
        let changes = ChangeSignal()
    }

    init(applicationID: String? = nil) throws {
        let loopback = try #require(try NetworkInterface.all().first { $0.isLoopback && !$0.ipv4Addresses.isEmpty })
        browser = try MDNSBrowser(
            configuration: .init(applicationID: applicationID, interfaceNames: [loopback.name], usesIPv6: false)
        )
        let stream = browser.events
        let store = self.store
        consumer = Task {
            for await event in stream {
                store.events.withLock { $0.append(event) }
                store.changes.notify()
            }
        }
        try browser.start()
    }

    /// Waits until an event satisfies `predicate`; `nil` after `timeout`.
    func wait(
        timeout: Duration = .seconds(20),
        _ predicate: @escaping @Sendable (MDNSBrowser.Event) -> Bool
    ) async -> MDNSBrowser.Event? {
        let store = store
        try? await store.changes.wait(until: "an mDNS event", within: timeout) {
            store.events.withLock { $0.contains(where: predicate) }
        }
        return store.events.withLock { $0.first(where: predicate) }
    }

    /// Every event so far, for failure messages.
    var all: [MDNSBrowser.Event] { store.events.withLock { $0 } }

    func stop() {
        browser.stop()
        consumer.cancel()
    }
}

/// Virtual devices advertised over mDNS on the loopback interface, found by python-zeroconf,
/// PyChromecast, our own browser, and the `cast-emulator --mdns` binary's devices likewise.
extension EmulatorProcessSuites {
    @Suite(.serialized) struct DiscoveryInteropTests {
        /// A name no other test (or other run on the machine) advertises.
        static func uniqueName(_ base: String) -> String { "\(base) \(Int.random(in: 10_000...99_999))" }

        /// A device with the real engine on ephemeral ports of a random `127.0.0.x`.
        static func startDevice(
            name: String,
            model: String = "Chromecast",
            advertiser: any DeviceAdvertiser
        ) async throws -> VirtualDevice {
            let identity = DeviceIdentity(
                friendlyName: name,
                deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                modelName: model
            )
            let device = VirtualDevice(
                configuration: VirtualDeviceConfiguration(identity: identity),
                options: .forTests(address: "127.0.0.\(Int.random(in: 50...250))"),
                advertiser: advertiser,
                certificateKey: Interop.sharedKey
            )
            try await device.start()
            return device
        }

        static func id(of device: VirtualDevice) -> UUID? {
            CastDevice.parseID(device.configuration.identity.deviceID)
        }

        @Test func ourBrowserSeesDevicesTheirStatusAndGoodbyes() async throws {
            let advertiser = try MDNSDeviceAdvertiser()
            defer { advertiser.shutdown() }
            let browser = try LoopbackBrowser(applicationID: "CC1AD845")
            defer { browser.stop() }
            let first = try await Self.startDevice(name: Self.uniqueName("Mdns Den"), advertiser: advertiser)
            let second = try await Self.startDevice(
                name: Self.uniqueName("Mdns Attic"),
                model: "Google Nest Hub",
                advertiser: advertiser
            )
            defer {
                Task { [first, second] in
                    await first.stop()
                    await second.stop()
                }
            }
            for device in [first, second] {
                let id = try #require(Self.id(of: device))
                let inserted = try #require(
                    await browser.wait { $0.kind == .inserted && $0.device.id == id },
                    "not found: \(device.configuration.identity.friendlyName); events \(browser.all)"
                )
                #expect(inserted.device.friendlyName == device.configuration.identity.friendlyName)
                #expect(inserted.device.modelName == device.configuration.identity.modelName)
                #expect(inserted.device.addresses == [IPAddress(device.options.address)!])
                #expect(Int(inserted.device.port) == device.ports?.cast)
                #expect(inserted.device.status == .idle)
                #expect(inserted.device.protocolVersion == 5)
                #expect(inserted.device.iconPath == "/setup/icon.png")
                #expect(inserted.device.serviceName.hasPrefix(device.advertisement.instanceName))
            }

            // Launching an app re-announces the TXT record: st=1 and rs carry it.
            let firstID = try #require(Self.id(of: first))
            let sender = try await TestSender(port: try #require(first.ports?.cast), address: first.options.address)
            defer { sender.close() }
            try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            try await sender.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#)
            let updated = await browser.wait {
                $0.kind == .updated && $0.device.id == firstID && $0.device.status == .busy
            }
            #expect(updated?.device.statusText == "Ready To Cast", "events: \(browser.all)")

            // Stopping a device says goodbye; the other stays.
            await first.stop()
            #expect(
                await browser.wait { $0.kind == .removed && $0.device.id == firstID } != nil,
                "no goodbye seen: \(browser.all)"
            )
            let secondID = try #require(Self.id(of: second))
            #expect(!browser.all.contains { $0.kind == .removed && $0.device.id == secondID })
            #expect(browser.browser.devices.contains { $0.id == secondID })
            await second.stop()
            #expect(await browser.wait { $0.kind == .removed && $0.device.id == secondID } != nil)
        }

        @Test func secondDeviceWithTheSameInstanceNameIsRenamed() async throws {
            let first = try MDNSDeviceAdvertiser()
            defer { first.shutdown() }
            let second = try MDNSDeviceAdvertiser()
            defer { second.shutdown() }
            let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            func advertisement(address: String, name: String) -> DeviceAdvertisement {
                DeviceAdvertisement(
                    instanceName: "Chromecast-\(id)",
                    address: address,
                    port: 8009,
                    txt: [("id", id), ("ve", "05"), ("md", "Chromecast"), ("fn", name), ("st", "0")],
                    applicationIDs: ["CC1AD845"]
                )
            }
            let original = advertisement(address: "127.0.0.91", name: Self.uniqueName("Twin A"))
            first.deviceDidStart(original)
            let registered = await firstEvent(in: first.events) { $0.kind == .registered }
            #expect(registered?.name == "Chromecast-\(id)")
            let twin = advertisement(address: "127.0.0.92", name: Self.uniqueName("Twin B"))
            second.deviceDidStart(twin)
            let renamed = await firstEvent(in: second.events) { $0.kind == .renamed }
            #expect(renamed?.name == "Chromecast-\(id) (2)")
            #expect(second.advertisedName(of: twin) == "Chromecast-\(id) (2)")
            #expect(first.advertisedName(of: original) == "Chromecast-\(id)")
        }

        @Test(.requires(.pythonPeers)) func zeroconfFindsEmulatorDevices() async throws {
            let advertiser = try MDNSDeviceAdvertiser()
            defer { advertiser.shutdown() }
            let devices = [
                try await Self.startDevice(name: Self.uniqueName("Zeroconf Hall"), advertiser: advertiser),
                try await Self.startDevice(
                    name: Self.uniqueName("Zeroconf Study"),
                    model: "Chromecast Ultra",
                    advertiser: advertiser
                ),
            ]
            defer { Task { [devices] in for device in devices { await device.stop() } } }
            let python = Interop.python
            try #require(FileManager.default.isExecutableFile(atPath: python), "no Python at \(python)")
            let result = try await ChildProcess.run(
                python,
                [Interop.script("zeroconf_browse.py", folder: "discovery"), "--seconds", "40"]
                    + devices.flatMap { ["--expect-fn", $0.configuration.identity.friendlyName] },
                deadline: .seconds(60)
            )
            #expect(result.status == 0, "zeroconf browser: \(result.standardOutput)\n\(result.standardError)")
            let found = result.standardOutput.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
            for device in devices {
                let identity = device.configuration.identity
                let entry = try #require(
                    found.first { $0["fn"]?.stringValue == identity.friendlyName },
                    "\(result.standardOutput)"
                )
                #expect(entry["md"]?.stringValue == identity.modelName)
                #expect(entry["id"]?.stringValue == identity.deviceID)
                #expect(entry["uuid"]?.stringValue == identity.udn)
                #expect(entry["port"]?.intValue == device.ports?.cast)
                #expect(entry["addresses"]?.arrayValue?.compactMap(\.stringValue) == [device.options.address])
            }
        }

        @Test(.requires(.pythonPeers)) func pychromecastDiscoversDeviceAndConnectsToIt() async throws {
            let advertiser = try MDNSDeviceAdvertiser()
            defer { advertiser.shutdown() }
            let device = try await Interop.startDevice(
                name: Self.uniqueName("PyChromecast Lounge"),
                advertiser: advertiser
            )
            let identity = device.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_discovery.py",
                arguments: [
                    try #require(identity.udn), identity.friendlyName, identity.modelName, device.options.address,
                ]
            )
            report.expectSteps([
                "discovered", "friendly name", "model", "port", "cast type", "mdns service", "connected", "address",
                "uuid", "launch", "quit app",
            ])
            await device.stop()
        }

        @Test(.requires(.pythonPeers)) func pychromecastDiscoversAGroupOnItsLeadersPort() async throws {
            let advertiser = try MDNSDeviceAdvertiser()
            defer { advertiser.shutdown() }
            func speaker(_ name: String, _ address: String) -> FleetConfiguration.Device {
                let identity = DeviceIdentity(
                    friendlyName: name,
                    deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                    modelName: "Google Nest Mini"
                )
                return FleetConfiguration.Device(
                    configuration: VirtualDeviceConfiguration(identity: identity, profile: .speaker),
                    options: DeviceServerOptions(address: address)
                )
            }
            let members = [Self.uniqueName("Mdns Kitchen"), Self.uniqueName("Mdns Hall")]
            let name = Self.uniqueName("Mdns Group")
            // The speakers take the real ports on random loopback addresses, which another
            // suite's device may hold at that moment: a clash is retried elsewhere.
            var started: DeviceFleet?
            for attempt in 0..<6 where started == nil {
                let base = Int.random(in: 50...240)
                var configuration = FleetConfiguration(devices: [
                    speaker(members[0], "127.0.0.\(base)"), speaker(members[1], "127.0.0.\(base + 1)"),
                ])
                configuration.groups = [FleetConfiguration.Group(name: name, members: members, castPort: 0)]
                let candidate = DeviceFleet(advertiser: advertiser)
                do {
                    try await candidate.start(configuration)
                    started = candidate
                } catch let error as TCPError where error.code == .addressInUse && attempt < 5 {
                    await candidate.stop()
                }
            }
            let fleet = try #require(started)
            let group = try #require(await fleet.device(named: name))
            let identity = group.configuration.identity
            let port = try #require(group.ports?.cast)
            #expect(port != 8009)
            let report = try await Interop.runScript(
                "pychromecast_discovery.py",
                arguments: [
                    try #require(identity.udn), identity.friendlyName, "Google Cast Group", group.options.address,
                    "--port", "\(port)", "--cast-type", "group",
                ]
            )
            report.expectSteps([
                "discovered", "friendly name", "model", "port", "cast type", "mdns service", "connected", "address",
                "uuid", "launch", "quit app",
            ])
            await fleet.stop()
        }

        @Test func commandLineDevicesAreAdvertisedUntilSIGTERM() async throws {
            let browser = try LoopbackBrowser()
            defer { browser.stop() }
            let name = Self.uniqueName("Mdns CLI")
            let (child, _) = try await ServerCommandLineTests.launch(
                count: 2,
                extra: ["--mdns", "--name", name, "--cast-port", "0", "--http-port", "0", "--https-port", "0"]
            )
            defer { child.kill() }
            #expect(child.standardError.contains("mdns: advertising on lo"), "\(child.standardError)")
            var ids: [UUID] = []
            for friendlyName in [name, "\(name) 2"] {
                let inserted = try #require(
                    await browser.wait { $0.kind == .inserted && $0.device.friendlyName == friendlyName },
                    "\(friendlyName) not found; emulator: \(child.standardError)"
                )
                let line = try #require(
                    child.standardError.split(separator: "\n").first { $0.contains("\"\(friendlyName)\"") }
                )
                #expect(line.contains("id=\(inserted.device.idText)"))
                #expect(line.contains("address=\(inserted.device.addresses.first?.description ?? "?")"))
                #expect(line.contains("cast=\(inserted.device.port) "))
                ids.append(inserted.device.id)
            }
            _ = Glibc.kill(child.process.processIdentifier, SIGTERM)
            for id in ids {
                #expect(
                    await browser.wait { $0.kind == .removed && $0.device.id == id } != nil,
                    "no goodbye for \(id): \(browser.all)"
                )
            }
            #expect(await child.wait(deadline: .seconds(30)) == 0)
        }

        @Test func helpDescribesMDNSOption() async throws {
            let result = try await ChildProcess.run(
                ServerCommandLineTests.executable,
                ["--help"],
                deadline: .seconds(30)
            )
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("--mdns [IFACE,...]"))
            #expect(result.standardOutput.contains("loopback interface"))
        }

        @Test(arguments: [["--mdns="], ["--mdns", "lo,,eth0"], ["--mdns", "nosuchif9"]])
        func commandLineRejectsBadInterfaceLists(arguments: [String]) async throws {
            let result = try await ChildProcess.run(
                ServerCommandLineTests.executable,
                arguments + [
                    "--address", "127.0.0.\(Int.random(in: 50...250))", "--cast-port", "0", "--http-port", "0",
                    "--https-port", "0",
                ],
                deadline: .seconds(60)
            )
            #expect(result.status != 0)
            #expect(
                result.standardError.contains("nosuchif9") || result.standardError.contains("--mdns"),
                "\(result.standardError)"
            )
        }
    }
}
