import CastCore
import CastSender
import CastSenderTestSupport
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// The code of the "Casting a video" article (CastSender.docc), step by step, against a
/// virtual device over TLS: what the article shows must compile and do what it says.
@Suite struct CastingAVideoWalkthroughTests {
    @Test func theArticlesStepsCastAndControlAVideo() async throws {
        let rig = try await EndToEndRig.start()
        defer { Task { await rig.device.stop() } }

        // Step 1 (an independent context instead of the shared one, as a test must).
        let context = CastContext(
            options: rig.options { options in
                options.physicalVolumeButtonsWillControlDeviceVolume = true
            }
        )

        // Step 2.
        var filter = CastLogFilter(minimumLevel: .warning)
        filter.setMinimumLevel(.verbose, for: [.discovery, .media, .channel])
        #expect(filter.allows(.verbose, from: .media, function: "f()", message: "m"))
        #expect(!filter.allows(.info, from: .session, function: "f()", message: "m"))

        // Step 3: a device added by address (its setup document is on port 8008, which this
        // device on ephemeral ports does not serve, so it is named by its address).
        let discovery = context.discoveryManager
        let device = try await discovery.addDevice(host: "127.0.0.1", port: rig.ports.cast)
        #expect(Int(device.port) == rig.ports.cast)

        // Step 4.
        let session = try await context.sessionManager.startSession(with: device)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)

        // Step 5.
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = "Big Buck Bunny"
        let media = MediaInformation(
            contentID: "https://example.com/bbb.mp4",
            streamType: .buffered,
            contentType: "video/mp4",
            metadata: metadata
        )
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: media, autoplay: true)).result
        #expect(rig.deviceMedia?.playerState == .playing)
        try await client.queueInsertItem(QueueItem(media: media), beforeItemID: MediaQueueItemID.invalid).result
        #expect(rig.deviceQueue?.count == 2)

        // Step 6.
        try await client.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        try await client.seek(MediaSeekOptions(interval: 90)).result
        #expect(rig.log.inbound(type: "SEEK").count == 1)
        try await client.play().result
        #expect(rig.deviceMedia?.playerState == .playing)
        if session.isFixedVolume {
            await #expect(throws: CastError.self) { try await session.setDeviceVolume(0.4).result }
        } else {
            try await session.setDeviceVolume(0.4).result
            #expect(rig.device.engineSnapshot?.deviceVolume.level == 0.4)
        }

        // Step 7.
        await context.sessionManager.endSession(stopCasting: true)
        #expect(rig.log.inbound(type: "STOP").count == 1)
        #expect(context.sessionManager.currentSession == nil)
    }
}
