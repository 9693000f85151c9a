import CastCore
import CastNetCore
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastNet

/// Real multicast on the loopback interface only: every socket here is bound to `lo`
/// (`SO_BINDTODEVICE`) and sends multicast through it (`IP_MULTICAST_IF`).
@Suite(.serialized) struct LoopbackDiscoveryTests {
    static func loopback() throws -> NetworkInterface {
        try #require(
            NetworkInterface.all().first { $0.isLoopback && $0.ipv4Addresses.contains(IPv4Address(127, 0, 0, 1)) }
        )
    }

    static func device(_ name: String, id: String, address: UInt8) -> CastDevice {
        CastDevice(
            id: CastDevice.parseID(id)!,
            friendlyName: name,
            modelName: "Swift Cast Test",
            capabilities: [.videoOut, .audioOut],
            status: .idle,
            statusText: "Ready",
            addresses: [.v4(IPv4Address(127, 0, 0, address))]
        )
    }

    @Test func multicastBetweenTwoSocketsOnLoopback() async throws {
        let lo = try Self.loopback()
        let receiver = try UDPSocket(family: .v4, port: 0, reuseAddress: true, device: lo)
        try receiver.joinGroup(MDNSTransport.groupV4, on: lo)
        let sender = try UDPSocket(family: .v4, port: 0, reuseAddress: false, device: lo)
        try sender.setMulticastInterface(lo, loopback: true)
        let (stream, continuation) = AsyncStream.makeStream(of: UDPDatagram.self)
        receiver.startReceiving { continuation.yield($0) }
        let payload = Array("hello multicast".utf8)
        try sender.send(payload, to: UDPEndpoint(address: MDNSTransport.groupV4, port: receiver.localPort))
        let datagram = try #require(await firstEvent(in: stream, timeout: .seconds(5)) { _ in true })
        #expect(datagram.bytes == payload)
        #expect(datagram.source.address == .v4(IPv4Address(127, 0, 0, 1)))
        #expect(datagram.source.port == sender.localPort)
        #expect(datagram.interfaceIndex == lo.index)
        try receiver.leaveGroup(MDNSTransport.groupV4, on: lo)
        receiver.close()
        sender.close()
        #expect(throws: UDPSocketError.self) {
            try sender.send(payload, to: UDPEndpoint(address: MDNSTransport.groupV4, port: 9))
        }
    }

    @Test func listsInterfacesWithFlagsAndAddresses() throws {
        let interfaces = try NetworkInterface.all()
        let lo = try Self.loopback()
        #expect(lo.isUp)
        #expect(lo.index > 0)
        #expect(lo.ipv6Addresses.contains { $0.isLoopback } || lo.ipv6Addresses.isEmpty)
        #expect(!lo.isDefaultForDiscovery)
        #expect(Set(interfaces.map(\.name)).count == interfaces.count)
    }

    @Test func selectsNamedInterfacesOrTheDefaultOnes() throws {
        let lo = NetworkInterface(
            name: "lo",
            index: 1,
            isLoopback: true,
            supportsMulticast: false,
            ipv4Addresses: [IPv4Address(127, 0, 0, 1)]
        )
        let eth = NetworkInterface(name: "eth0", index: 2, ipv4Addresses: [IPv4Address(192, 0, 2, 2)])
        let down = NetworkInterface(name: "eth1", index: 3, isUp: false, ipv4Addresses: [IPv4Address(192, 0, 2, 3)])
        let all = [lo, eth, down]
        #expect(try NetworkInterface.select(names: nil, from: all) == [eth])
        #expect(try NetworkInterface.select(names: [], from: all) == [eth])
        #expect(try NetworkInterface.select(names: ["lo"], from: all) == [lo])
        #expect(
            try NetworkInterface.select(names: NetworkInterface.names(fromList: " lo , eth1,"), from: all) == [
                lo, down,
            ]
        )
        #expect {
            try NetworkInterface.select(names: ["wlan9"], from: all)
        } throws: { error in
            (error as? UDPSocketError)?.code == .unknownInterface
                && (error as? UDPSocketError)?.description == "no network interface named wlan9"
        }
    }

    @Test func noUsableInterfaceNamesEachOneAndWhyItWasLeftOut() throws {
        let lo = NetworkInterface(name: "lo", index: 1, isLoopback: true, ipv4Addresses: [IPv4Address(127, 0, 0, 1)])
        let down = NetworkInterface(name: "eth1", index: 2, isUp: false, ipv4Addresses: [IPv4Address(192, 0, 2, 3)])
        let bare = NetworkInterface(name: "tun0", index: 3)
        let quiet = NetworkInterface(
            name: "wg0",
            index: 4,
            supportsMulticast: false,
            ipv4Addresses: [IPv4Address(10, 0, 0, 1)]
        )
        #expect(lo.discoveryExclusionReason == "loopback")
        #expect(down.discoveryExclusionReason == "down")
        #expect(bare.discoveryExclusionReason == "no address")
        #expect(quiet.discoveryExclusionReason == "no multicast")
        #expect {
            try NetworkInterface.select(names: nil, from: [lo, down, bare, quiet])
        } throws: { error in
            guard let error = error as? UDPSocketError else { return false }
            return error.code == .noUsableInterface
                && error.description
                    == "no network interface can carry mDNS discovery; seen: lo (loopback, left out by default), "
                    + "eth1 (down, left out by default), tun0 (no address, left out by default), "
                    + "wg0 (no multicast, left out by default)"
        }
        #expect {
            try NetworkInterface.select(names: nil, from: [])
        } throws: { error in
            (error as? UDPSocketError)?.description
                == "no network interface can carry mDNS discovery; this machine lists no network interface"
        }
    }

    @Test func browserFindsResponderOverLoopbackMulticast() async throws {
        let lo = try Self.loopback()
        let responder = try MDNSResponder(interfaces: [lo], usesIPv6: false, clock: SystemCastClock())
        let device = Self.device("Swift Den", id: "0123456789abcdef0123456789abcdef", address: 2)
        let registration = responder.register(MDNSService(castDevice: device, applicationIDs: ["CC1AD845"]))
        let browser = MDNSBrowser(
            configuration: .init(applicationID: "CC1AD845"),
            interfaces: [lo],
            clock: SystemCastClock()
        )
        try browser.start()
        defer {
            browser.stop()
            responder.shutdown()
        }
        let inserted = try #require(
            await firstEvent(in: browser.events, timeout: .seconds(10)) {
                $0.kind == .inserted && $0.device.id == device.id
            }
        )
        #expect(inserted.device.friendlyName == "Swift Den")
        #expect(inserted.device.modelName == "Swift Cast Test")
        #expect(inserted.device.addresses == [.v4(IPv4Address(127, 0, 0, 2))])
        #expect(inserted.device.port == 8009)
        #expect(inserted.device.statusText == "Ready")
        #expect(inserted.device.serviceName == "Swift Den._googlecast._tcp.local")
        responder.unregister(registration)
        let removed = await firstEvent(in: browser.events, timeout: .seconds(5)) {
            $0.kind == .removed && $0.device.id == device.id
        }
        #expect(removed != nil)
    }

    @Test func responderAnswersLegacyUnicastQuery() async throws {
        let lo = try Self.loopback()
        let responder = try MDNSResponder(interfaces: [lo], usesIPv6: false, clock: SystemCastClock())
        defer { responder.shutdown() }
        let registration = responder.register(
            MDNSService(castDevice: Self.device("Legacy Room", id: "1123456789abcdef0123456789abcdef", address: 3))
        )
        _ = await firstEvent(in: responder.events, timeout: .seconds(5)) {
            $0.kind == .registered && $0.registration == registration
        }
        let socket = try UDPSocket(family: .v4, port: 0, reuseAddress: false, device: lo)
        try socket.setMulticastInterface(lo, loopback: true)
        let (stream, continuation) = AsyncStream.makeStream(of: UDPDatagram.self)
        socket.startReceiving { continuation.yield($0) }
        var query = DNSMessage.query([DNSQuestion(name: MDNSQuerierStateMachine.castServiceType, type: .ptr)])
        query.id = 0xBEEF
        try socket.send(try query.encoded(), to: UDPEndpoint(address: MDNSTransport.groupV4, port: 5353))
        // Other responders on the machine's loopback may answer too: wait for ours.
        let instance = try DNSName(labels: ["Legacy Room", "_googlecast", "_tcp", "local"])
        let reply = try #require(
            await firstEvent(in: stream, timeout: .seconds(5)) { datagram in
                guard let message = try? DNSMessage(decoding: datagram.bytes) else { return false }
                return message.id == 0xBEEF && message.answers.contains { $0.data == .ptr(instance) }
            }
        )
        let message = try DNSMessage(decoding: reply.bytes)
        #expect(message.isResponse)
        #expect(message.questions == query.questions)
        #expect(
            message.answers.contains {
                $0.data == .ptr(try! DNSName(labels: ["Legacy Room", "_googlecast", "_tcp", "local"]))
            }
        )
        #expect(message.answers.allSatisfy { $0.ttl <= 10 })
        socket.close()
    }

    @Test(.requires(.pythonPeers)) func browserFindsZeroconfServiceAndSeesItsGoodbye() async throws {
        let lo = try Self.loopback()
        let browser = MDNSBrowser(configuration: .init(), interfaces: [lo], clock: SystemCastClock())
        try browser.start()
        defer { browser.stop() }
        let peer = try TestProcess(
            try TestEnvironment.python(),
            [
                TestEnvironment.script("zeroconf_register.py"), "--name", "Zeroconf Kitchen", "--address", "127.0.0.4",
                "--port", "8010", "--txt", "id=feedfacefeedfacefeedfacefeedface", "--txt", "fn=Kitchen speaker",
                "--txt", "md=Google Nest Mini", "--txt", "ve=05", "--txt", "ca=199172", "--txt", "st=1", "--txt",
                "rs=Spotify",
                "--seconds", "30",
            ]
        )
        defer { peer.kill() }
        let registered = await peer.waitForLine(timeout: .seconds(20)) { $0 == "registered" }
        try #require(registered != nil, "zeroconf did not register: \(peer.standardError)")
        let inserted = try #require(
            await firstEvent(in: browser.events, timeout: .seconds(10)) {
                $0.kind == .inserted && $0.device.id == CastDevice.parseID("feedfacefeedfacefeedfacefeedface")
            }
        )
        let device = inserted.device
        #expect(device.id == CastDevice.parseID("feedfacefeedfacefeedfacefeedface"))
        #expect(device.friendlyName == "Kitchen speaker")
        #expect(device.modelName == "Google Nest Mini")
        #expect(device.protocolVersion == 5)
        #expect(device.capabilities == CastDeviceCapabilities(rawValue: 199_172))
        #expect(device.capabilities.contains(.audioOut) && !device.capabilities.contains(.videoOut))
        #expect(device.status == .busy)
        #expect(device.statusText == "Spotify")
        #expect(device.port == 8010)
        #expect(device.addresses == [.v4(IPv4Address(127, 0, 0, 4))])
        peer.send("quit")
        #expect(await peer.waitForLine(timeout: .seconds(10)) { $0 == "unregistered" } != nil)
        let removed = await firstEvent(in: browser.events, timeout: .seconds(5)) {
            $0.kind == .removed && $0.device.id == device.id
        }
        #expect(removed != nil)
        #expect(!browser.devices.contains { $0.id == device.id })
        await peer.waitForExit(timeout: .seconds(10))
    }

    /// Waits (bounded by real time) until `condition` holds of a browser's list, which moves
    /// with mDNS traffic on the real interface.
    static func eventually(timeout: Duration, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
        (try? await pollUntil("the browser's list to change", within: timeout, condition)) != nil || condition()
    }

    @Test(.requires(.pythonPeers)) func appBrowserListsServicesWithoutSubtypesUnlessItRequiresThem() async throws {
        let lo = try Self.loopback()
        let browsing = MDNSBrowser(
            configuration: .init(applicationID: "CC1AD845"),
            interfaces: [lo],
            clock: SystemCastClock()
        )
        let requiring = MDNSBrowser(
            configuration: .init(applicationID: "CC1AD845", requiresApplicationSubtype: true),
            interfaces: [lo],
            clock: SystemCastClock()
        )
        try browsing.start()
        defer { browsing.stop() }
        try requiring.start()
        defer { requiring.stop() }
        let tag = Int.random(in: 10_000...99_999)
        // Ours advertises the app subtype; python-zeroconf's service has none, as some
        // devices and most third-party receivers advertise.
        let responder = try MDNSResponder(interfaces: [lo], usesIPv6: false, clock: SystemCastClock())
        defer { responder.shutdown() }
        let withSubtype = Self.device("Subtype Den \(tag)", id: "cafe0000cafe0000cafe0000000\(tag)", address: 8)
        _ = responder.register(MDNSService(castDevice: withSubtype, applicationIDs: ["CC1AD845"]))
        let plainID = "beef0000beef0000beef0000000\(tag)"
        let peer = try TestProcess(
            try TestEnvironment.python(),
            [
                TestEnvironment.script("zeroconf_register.py"), "--name", "Plain Hall \(tag)", "--address", "127.0.0.9",
                "--txt", "id=\(plainID)", "--txt", "fn=Plain Hall \(tag)", "--txt", "md=Chromecast", "--txt", "ve=05",
                "--txt", "ca=4101", "--txt", "st=0", "--seconds", "40",
            ]
        )
        defer { peer.kill() }
        let registered = await peer.waitForLine(timeout: TestTiming.scaled(.seconds(20))) { $0 == "registered" }
        try #require(registered != nil, "zeroconf did not register: \(peer.standardError)")
        let plain = try #require(CastDevice.parseID(plainID))
        let subtyped = withSubtype.id
        #expect(
            await Self.eventually(timeout: .seconds(15)) {
                let ids = browsing.devices.map(\.id)
                return ids.contains(plain) && ids.contains(subtyped)
            },
            "browsing: \(browsing.devices.map(\.friendlyName))"
        )
        #expect(browsing.devices.first { $0.id == plain }?.friendlyName == "Plain Hall \(tag)")
        // Asking for the subtype lists the device that advertises it, never the other.
        #expect(
            await Self.eventually(timeout: .seconds(15)) { requiring.devices.contains { $0.id == subtyped } },
            "requiring: \(requiring.devices.map(\.friendlyName))"
        )
        #expect(!requiring.devices.contains { $0.id == plain })
        peer.send("quit")
        #expect(await peer.waitForLine(timeout: TestTiming.patience) { $0 == "unregistered" } != nil)
        #expect(await Self.eventually(timeout: .seconds(5)) { !browsing.devices.contains { $0.id == plain } })
        await peer.waitForExit(timeout: .seconds(10))
    }

    @Test(.requires(.pythonPeers)) func zeroconfBrowserFindsResponderDevices() async throws {
        let lo = try Self.loopback()
        let responder = try MDNSResponder(interfaces: [lo], usesIPv6: false, clock: SystemCastClock())
        defer { responder.shutdown() }
        let devices = [
            Self.device("Swift Living Room", id: "aaaaaaaabbbbccccddddeeeeeeeeeeee", address: 5),
            Self.device("Swift Bedroom", id: "bbbbbbbbbbbbccccddddeeeeeeeeeeee", address: 6),
        ]
        for device in devices { _ = responder.register(MDNSService(castDevice: device, applicationIDs: ["CC1AD845"])) }
        let browser = try TestProcess(
            try TestEnvironment.python(),
            [TestEnvironment.script("zeroconf_browse.py"), "--seconds", "20"]
                + devices.flatMap { ["--expect-fn", $0.friendlyName!] }
        )
        defer { browser.kill() }
        let status = await browser.waitForExit(timeout: .seconds(30))
        #expect(status == 0, "zeroconf browser: \(browser.standardError)")
        let found = browser.lines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for device in devices {
            let entry = try #require(found.first { $0["fn"] as? String == device.friendlyName }, "\(browser.lines)")
            #expect(entry["md"] as? String == "Swift Cast Test")
            #expect(entry["uuid"] as? String == device.id.uuidString.lowercased())
            #expect(entry["port"] as? Int == 8009)
            #expect(entry["addresses"] as? [String] == [device.addresses[0].description])
        }
    }
}
