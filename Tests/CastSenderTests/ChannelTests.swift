import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSender

final class EchoDelegate: GenericChannelDelegate {
    let messages = Locked<[String]>([])
    let connects = Locked(0)

    func castChannel(_ channel: GenericChannel, didReceiveTextMessage message: String, withNamespace namespace: String)
    {
        messages.withLock { $0.append(message) }
    }

    func castChannelDidConnect(_ channel: GenericChannel) { connects.withLock { $0 += 1 } }
}

@Suite struct ChannelTests {
    @Test(arguments: ["", "urn:x-cast:", "http://example.com", "urn:x-cast:com.google.cast.media", "urn:x-cast:a b"])
    func invalidNamespacesAreRejected(namespace: String) {
        #expect(throws: CastError(.invalidRequest, "")) { try GenericChannel(namespace: namespace) }
    }

    @Test func sendingWhileDisconnectedFails() throws {
        let channel = try GenericChannel(namespace: "urn:x-cast:com.example.hello")
        #expect(!channel.isConnected)
        #expect(throws: CastError(.channelNotConnected, "")) { try channel.sendTextMessage("Hello World") }
    }

    @Test func customChannelEchoes() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let echo = try GenericChannel(namespace: FakeDevice.echoNamespace)
        let delegate = EchoDelegate()
        echo.delegate = delegate
        let unlisted = try GenericChannel(namespace: "urn:x-cast:com.example.unlisted")
        session.add(echo)
        session.add(unlisted)
        #expect(echo.isConnected)
        #expect(!unlisted.isConnected)
        try echo.sendTextMessage("Hello World")
        try await harness.until("the echo") { !delegate.messages.withLock { $0 }.isEmpty }
        #expect(delegate.messages.withLock { $0 } == ["echo: Hello World"])
        #expect(delegate.connects.withLock { $0 } == 1)
        await context.sessionManager.endSession()
        #expect(!echo.isConnected)
    }
}
