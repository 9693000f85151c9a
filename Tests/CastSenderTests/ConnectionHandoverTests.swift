import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Testing

@testable import CastSender

/// A device checked by address with its connection kept: the session that follows uses that
/// connection (one TLS connection, one platform CONNECT), and a kept connection nobody takes
/// closes at its deadline.
@Suite struct ConnectionHandoverTests {
    static func platformConnects(_ device: FakeDevice) -> Int {
        device.received.filter { message in
            message.namespace == .connection && message.destinationID == DeviceConnection.platformReceiverID
                && message.payloadUTF8?.contains(#""CONNECT""#) == true
        }.count
    }

    @Test func theSessionAdoptsTheCheckingConnection() async throws {
        let harness = Harness()
        let context = DeviceByAddressTests.context(harness, setup: nil)
        let device = try await context.discoveryManager.addDevice(
            host: "127.0.0.1",
            port: 8009,
            keepingConnectionFor: .seconds(10)
        )
        #expect(harness.device.connectCount == 1)
        #expect(harness.device.openConnectionCount == 1, "the checking connection stays open")
        let session = try await context.sessionManager.startSession(with: device, host: "127.0.0.1", port: 8009)
        #expect(harness.device.connectCount == 1, "no second connection")
        #expect(Self.platformConnects(harness.device) == 1)
        // The adopted connection carries the session: media commands and statuses flow.
        try await session.remoteMediaClient.load(LoadRequestData(media: MediaInformation(contentID: "a"))).result
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        #expect(context.sessionManager.parkedConnectionCount == 0)
        await context.sessionManager.endSession()
    }

    /// Every event of an adopted connection goes through its replaceable route; many of them
    /// must not build anything up (a route held as a bare function value grew two thunks an
    /// event and overflowed the stack after some thousands).
    @Test func anAdoptedConnectionCarriesManyEvents() async throws {
        let harness = Harness()
        let context = DeviceByAddressTests.context(harness, setup: nil)
        let device = try await context.discoveryManager.addDevice(
            host: "127.0.0.1",
            port: 8009,
            keepingConnectionFor: .seconds(10)
        )
        let session = try await context.sessionManager.startSession(with: device, host: "127.0.0.1", port: 8009)
        let echo = try GenericChannel(namespace: FakeDevice.echoNamespace)
        let delegate = EchoDelegate()
        echo.delegate = delegate
        session.add(echo)
        let count = 30_000
        for index in 0..<count { try echo.sendTextMessage("\(index)") }
        // Bounded by the suite's patience, not by a count of polls: 30,000 echoes take a
        // while in a debug build on a loaded machine.
        let deadline = ContinuousClock.now + TestTiming.patience
        while delegate.messages.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
            await harness.drain()
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(delegate.messages.withLock { $0.count } == count)
        #expect(delegate.messages.withLock { $0.last } == "echo: \(count - 1)")
        await context.sessionManager.endSession()
    }

    @Test func aKeptConnectionNobodyTakesClosesAtItsDeadline() async throws {
        let harness = Harness()
        let context = DeviceByAddressTests.context(harness, setup: nil)
        let device = try await context.discoveryManager.addDevice(
            host: "127.0.0.1",
            port: 8009,
            keepingConnectionFor: .seconds(10)
        )
        #expect(harness.device.openConnectionCount == 1)
        harness.clock.advance(by: .seconds(10))
        #expect(await harness.eventually { harness.device.openConnectionCount == 0 })
        #expect(context.sessionManager.parkedConnectionCount == 0)
        // The session then opens a connection of its own.
        _ = try await context.sessionManager.startSession(with: device, host: "127.0.0.1", port: 8009)
        #expect(harness.device.connectCount == 2)
        await context.sessionManager.endSession()
    }

    @Test func withoutKeepingTheCheckClosesItsConnection() async throws {
        let harness = Harness()
        let context = DeviceByAddressTests.context(harness, setup: nil)
        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        #expect(await harness.eventually { harness.device.openConnectionCount == 0 })
        _ = try await context.sessionManager.startSession(with: device, host: "127.0.0.1", port: 8009)
        #expect(harness.device.connectCount == 2)
        await context.sessionManager.endSession()
    }

    @Test func aConnectionKeptForAnotherAddressIsNotTaken() async throws {
        let harness = Harness()
        let context = DeviceByAddressTests.context(harness, setup: nil)
        let device = try await context.discoveryManager.addDevice(
            host: "127.0.0.1",
            port: 8009,
            keepingConnectionFor: .seconds(10)
        )
        _ = try await context.sessionManager.startSession(with: device, host: "127.0.0.1", port: 8010)
        #expect(harness.device.connectCount == 2)
        #expect(context.sessionManager.parkedConnectionCount == 1)
        await context.sessionManager.endSession()
    }
}
