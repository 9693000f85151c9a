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
        let count = 30_000
        let echo = try GenericChannel(namespace: FakeDevice.echoNamespace)
        let delegate = EchoCounter(expecting: count)
        echo.delegate = delegate
        session.add(echo)
        for index in 0..<count { try echo.sendTextMessage("\(index)") }
        // The last echo itself ends the wait; the suite's patience bounds it (30,000 echoes
        // take a while in a debug build on a loaded machine).
        try await withDeadline(TestTiming.patience, "\(count) echoes") { await delegate.allArrived() }
        #expect(delegate.messages.count == count)
        #expect(delegate.messages.last == "echo: \(count - 1)")
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
        try await harness.until("the checking connection closed") { harness.device.openConnectionCount == 0 }
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
        try await harness.until("the checking connection closed") { harness.device.openConnectionCount == 0 }
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

/// Echo messages in order, and a wait that ends when the expected number has arrived.
private final class EchoCounter: GenericChannelDelegate, Sendable {
    private struct State {
        var messages: [String] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())
    private let expected: Int

    init(expecting expected: Int) { self.expected = expected }

    var messages: [String] { state.withLock { $0.messages } }

    func castChannel(_ channel: GenericChannel, didReceiveTextMessage message: String, withNamespace namespace: String)
    {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.messages.append(message)
            guard state.messages.count >= expected else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in ready { waiter.resume() }
    }

    /// Returns once `expected` messages have arrived.
    func allArrived() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state in
                if state.messages.count >= expected { return true }
                state.waiters.append(continuation)
                return false
            }
            if arrived { continuation.resume() }
        }
    }
}
