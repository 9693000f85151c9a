import CastCore
import CastNetCore
import CastNetEmbedded
import CastTestSupport
import CastTime
import Testing

@testable import CastNet

/// The mDNS browser and responder of `CastNet`, on a link in memory driven by an embedded
/// loop: probing, announcing, finding, goodbyes, expiry and the query cadence follow the
/// manual clock. The machines draw their random delays from fixed seeds, and each check holds
/// for any draw in the ranges RFC 6762 gives. Multicast on a real interface stays in
/// ``LoopbackDiscoveryTests`` and ``NamespaceDiscoveryTests``.
@Suite struct MDNSInMemoryTests {
    static let deviceAddress = IPAddress.v4(IPv4Address(192, 0, 2, 2))
    static let senderAddress = IPAddress.v4(IPv4Address(192, 0, 2, 9))

    static let device = CastDevice(
        id: CastDevice.parseID("0123456789abcdef0123456789abcdef")!,
        friendlyName: "Memory Den",
        modelName: "Swift Cast Test",
        capabilities: [.videoOut, .audioOut],
        status: .idle,
        statusText: "Ready"
    )

    /// A link, a responder at ``deviceAddress`` and a stopped browser at ``senderAddress``.
    struct Link {
        let loop = EmbeddedLoop()
        let network: EmbeddedMDNSNetwork
        let responder: MDNSResponder
        let browser: MDNSBrowser

        init(seed: UInt64) throws {
            network = EmbeddedMDNSNetwork(loop: loop)
            responder = try MDNSResponder(
                interfaceNames: ["link0"],
                interfaceAddresses: [MDNSInMemoryTests.deviceAddress],
                clock: loop.clock,
                scheduler: network.scheduler,
                random: MDNSRandom(seed: seed),
                openTransport: network.opener(address: MDNSInMemoryTests.deviceAddress)
            )
            browser = MDNSBrowser(
                configuration: .init(applicationID: "CC1AD845"),
                interfaceNames: ["link0"],
                clock: loop.clock,
                scheduler: network.scheduler,
                random: MDNSRandom(seed: seed &+ 1),
                openTransport: network.opener(address: MDNSInMemoryTests.senderAddress)
            )
        }

        /// The messages `address` sent so far, responses or queries.
        func sent(by address: IPAddress, responses: Bool) -> [EmbeddedMDNSNetwork.Transmission] {
            network.sent.filter { $0.source == address && $0.message.isResponse == responses }
        }
    }

    /// The next event of `stream`; the stream buffers events, so one already sent is there.
    static func next<Element: Sendable>(_ stream: AsyncStream<Element>) async throws -> Element? {
        try await withDeadline(TestTiming.hangGuard, "an event") {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theResponderProbesAnnouncesAndTheBrowserFindsThenLosesTheDevice(seed: UInt64) async throws {
        let link = try Link(seed: seed)
        let registration = link.responder.register(MDNSService(castDevice: Self.device, applicationIDs: ["CC1AD845"]))
        // Three probes, the first within 250 ms, then 250 ms apart; the name is taken 250 ms
        // after the third: within a second whatever the first delay.
        link.loop.advance(by: .seconds(1))
        #expect(link.sent(by: Self.deviceAddress, responses: false).count == 3)
        let registered = try await Self.next(link.responder.events)
        #expect(registered?.kind == .registered)
        #expect(registered?.name == "Memory Den")
        #expect(link.sent(by: Self.deviceAddress, responses: true).count >= 1, "the first announcement")

        // The browser's first query goes out within 120 ms. The responder multicast its records
        // less than a second before, so it does not again (RFC 6762 §6), but its second
        // announcement, a second after the first, reaches the browser by 2 s.
        try link.browser.start()
        link.loop.advance(to: CastInstant(offset: .seconds(2)))
        let inserted = try await Self.next(link.browser.events)
        #expect(inserted?.kind == .inserted)
        #expect(inserted?.device.friendlyName == "Memory Den")
        #expect(inserted?.device.addresses == [Self.deviceAddress])
        #expect(inserted?.device.port == 8009)
        #expect(inserted?.device.serviceName == "Memory Den._googlecast._tcp.local")
        #expect(link.browser.devices.map(\.id) == [Self.device.id])

        // A goodbye removes it at once.
        link.responder.unregister(registration)
        link.loop.run()
        let removed = try await Self.next(link.browser.events)
        #expect(removed?.kind == .removed)
        #expect(link.browser.devices.isEmpty)
        link.browser.stop()
        link.responder.shutdown()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aDeviceUnpluggedWithoutAGoodbyeGoesWhenItsAddressRecordExpires(seed: UInt64) async throws {
        let link = try Link(seed: seed)
        _ = link.responder.register(MDNSService(castDevice: Self.device))
        link.loop.advance(by: .seconds(1))
        try link.browser.start()
        link.loop.advance(by: .seconds(1))
        #expect(try await Self.next(link.browser.events)?.kind == .inserted)
        link.network.disconnect(Self.deviceAddress)
        let lastHeard = try #require(link.sent(by: Self.deviceAddress, responses: true).last?.time)
        // The address record lives 120 s from the last answer; the browser asks for it again
        // at 80, 85, 90 and 95 % of that (each up to 2 % late), in vain.
        let expiry = lastHeard.advanced(by: .seconds(120))
        link.loop.advance(to: expiry.advanced(by: .milliseconds(-1)))
        #expect(link.browser.devices.count == 1)
        let refreshes = link.sent(by: Self.senderAddress, responses: false).filter { transmission in
            transmission.time > lastHeard && transmission.message.questions.contains { $0.type == .a }
        }
        #expect(refreshes.count == 4)
        link.loop.advance(to: expiry)
        #expect(link.browser.devices.isEmpty)
        #expect(try await Self.next(link.browser.events)?.kind == .removed)
        link.browser.stop()
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func browseQueriesGoOutAfterOneTwoFourAndEightSeconds(seed: UInt64) throws {
        let link = try Link(seed: seed)
        try link.browser.start()
        func queries() -> Int { link.sent(by: Self.senderAddress, responses: false).count }
        // The first query within 20–120 ms, then 1, 2, 4 and 8 s apart.
        var counts: [Int] = []
        for checkpoint in [19, 121, 1_019, 1_121, 3_019, 3_121, 7_019, 7_121, 15_019, 15_121] {
            link.loop.advance(to: CastInstant(offset: .milliseconds(checkpoint)))
            counts.append(queries())
        }
        #expect(counts == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
        link.browser.stop()
    }
}
