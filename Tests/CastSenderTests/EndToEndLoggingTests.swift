import CastAuth
import CastCore
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// Every SDK component logs through the context's logger during the codelab flow, against
/// the virtual device over TLS with device authentication (whose log lines only a TLS
/// connection produces; the component filter is checked in memory, in
/// ``EndToEndLogFilterTests``).
@Suite(.requires(.openScreenTestData)) struct EndToEndLoggingTests {
    static let channelNamespace = "urn:x-cast:com.example.logging"

    @Test func everyComponentLogsTheFlowAtGCKLevels() async throws {
        // The Default Media Receiver with an app namespace for a custom channel.
        let app = ReceiverAppDefinition(
            appID: DiscoveryCriteria.defaultMediaReceiverApplicationID,
            displayName: "Default Media Receiver",
            namespaces: [.media, CastNamespace(rawValue: Self.channelNamespace)]
        )
        let withChannel = try await EndToEndDeviceAuthTests.device(.testChain) { $0.applications = [app] }
        let sink = CollectingSink()
        let logger = CastLogger()
        logger.sink = sink
        var options = EndToEndDeviceAuthTests.options(
            withChannel,
            anchor: try #require(EndToEndDeviceAuthTests.deviceChain.last)
        )
        options.logger = logger
        let context = CastContext(options: options)

        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: withChannel.ports.cast)
        let session = try await context.sessionManager.startSession(with: device)
        let channel = try GenericChannel(namespace: Self.channelNamespace)
        session.add(channel)
        try channel.sendTextMessage("hello")
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: EndToEndCodelabTests.media)).result
        let queueEvents = client.mediaQueue.events()
        try await client.queueInsertItem(QueueItem(media: EndToEndCodelabTests.media)).result
        try await withDeadline(TestTiming.hangGuard, "the queue's second item") {
            if client.mediaQueue.itemCount == 2 { return }
            for await _ in queueEvents where client.mediaQueue.itemCount == 2 { return }
            throw DeadlineExceeded(what: "the queue's second item (its events ended first)")
        }
        try await client.pause().result
        await context.sessionManager.endSession()

        let entries = sink.entries.withLock { $0 }
        let components = Set(entries.map(\.component))
        for component: CastLogComponent in [
            .context, .discovery, .session, .connection, .deviceAuth, .media, .queue, .channel,
        ] {
            #expect(components.contains(component), "nothing logged by \(component)")
        }
        func has(_ level: CastLogLevel, _ component: CastLogComponent, _ message: String) -> Bool {
            entries.contains { $0.level == level && $0.component == component && $0.message == message }
        }
        #expect(has(.info, .deviceAuth, "device authenticated"))
        #expect(has(.info, .session, "launching app"))
        #expect(has(.info, .media, "loading media"))
        #expect(has(.debug, .media, "media command sent"))
        #expect(has(.verbose, .connection, "send"))
        #expect(has(.verbose, .connection, "receive"))
        #expect(has(.info, .channel, "channel connected"))
        #expect(has(.debug, .queue, "queue item ids received"))
        #expect(has(.info, .discovery, "device added by address"))
        // Constant messages: the details are in the metadata, never in the text.
        #expect(entries.allSatisfy { !$0.message.contains(DiscoveryCriteria.defaultMediaReceiverApplicationID) })
        #expect(
            entries.first { $0.message == "loading media" }?.metadata["cast.content-id"]
                == EndToEndCodelabTests.media.contentID
        )
    }
}
