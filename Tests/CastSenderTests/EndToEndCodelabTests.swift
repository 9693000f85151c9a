import CastCore
import CastSenderTestSupport
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The Cast codelab flow against the virtual device's engine, in memory (``InMemoryRig``):
/// every command is checked on the device's own engine state as well as on the sender's view,
/// and time moves only when the test advances the clock.
@Suite struct EndToEndCodelabTests {
    static let media = MediaInformation(
        contentID: "http://127.0.0.1:9/big-buck-bunny.mp4",
        streamType: .buffered,
        contentType: "video/mp4",
        duration: 600,
        tracks: [
            MediaTrack(trackID: 1, type: .text, trackContentID: "http://127.0.0.1:9/en.vtt", language: "en"),
            MediaTrack(trackID: 2, type: .audio, language: "en"),
        ]
    )

    @Test func codelabFlowAgainstTheVirtualDevice() async throws {
        let rig = InMemoryRig { $0.bufferingDelay = .zero }
        let context = rig.context(rig.options())
        let recorder = SessionEventLog()
        context.sessionManager.add(recorder)

        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        #expect(context.sessionManager.hasConnectedSession)
        let running = try #require(rig.device.engineSnapshot?.runningApplication)
        #expect(running.appID == DiscoveryCriteria.defaultMediaReceiverApplicationID)
        #expect(running.sessionID == session.sessionID)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)

        let client = session.remoteMediaClient
        let item = QueueItem(media: Self.media, autoplay: true, preloadTime: 20)
        try await rig.run {
            try await client.load(
                LoadRequestData(media: Self.media, queueData: QueueData(repeatMode: .off, items: [item]))
            ).result
        }
        #expect(client.mediaStatus?.playerState == .playing)
        #expect(rig.deviceMedia?.playerState == .playing)
        let queue = try #require(rig.deviceQueue)
        #expect(queue.count == 1)
        #expect(queue.first?.preloadTime == 20)
        #expect(queue.first?.autoplay == true)
        #expect(rig.deviceMedia?.currentItemID == queue.first?.itemID)

        // Position advances on the device and in the sender's estimate, with the clock.
        let before = try #require(rig.deviceMedia?.currentTime)
        rig.advance(by: .milliseconds(400))
        #expect(rig.deviceMedia?.currentTime == before + 0.4)
        #expect(client.approximateStreamPosition == before + 0.4)

        // Insert before the invalid ID appends.
        let firstItemID = try #require(rig.deviceQueue?.first?.itemID)
        try await rig.run {
            try await client.queueInsertItem(
                QueueItem(media: Self.media, autoplay: true, preloadTime: 20),
                beforeItemID: MediaQueueItemID.invalid
            ).result
        }
        let items = try #require(rig.deviceQueue)
        #expect(items.count == 2)
        #expect(rig.deviceMedia?.items?.count == 2)
        #expect(items.first?.itemID == firstItemID, "the new item goes last")
        let insert = try #require(rig.log.inbound(type: "QUEUE_INSERT").first)
        #expect(!insert.payload.contains("insertBefore"))

        try await rig.run { try await client.pause().result }
        #expect(rig.deviceMedia?.playerState == .paused)
        #expect(client.mediaStatus?.playerState == .paused)
        try await rig.run { try await client.play().result }
        #expect(rig.deviceMedia?.playerState == .playing)
        try await rig.run { try await client.seek(MediaSeekOptions(interval: 42, resumeState: .playbackPause)).result }
        let seeked = try #require(rig.deviceMedia)
        #expect(seeked.playerState == .paused)
        #expect(seeked.currentTime == 42)
        #expect(client.mediaStatus?.currentTime == 42)
        try await rig.run { try await client.play().result }
        try await rig.run { try await client.setPlaybackRate(2).result }
        #expect(rig.deviceMedia?.playbackRate == 2)
        // Three seconds at twice the speed: six of media.
        rig.advance(by: .seconds(3))
        #expect(rig.deviceMedia?.currentTime == 48)
        try await rig.run { try await client.setStreamVolume(0.25).result }
        #expect(rig.deviceMedia?.volume?.level == 0.25)
        try await rig.run { try await client.setStreamMuted(true).result }
        #expect(rig.deviceMedia?.volume?.muted == true)
        try await rig.run { try await client.setActiveTrackIDs([1]).result }
        #expect(rig.deviceMedia?.activeTrackIDs == [1])
        #expect(client.mediaStatus?.activeTrackIDs == [1])
        try await rig.run { try await client.pause().result }
        let position = try #require(rig.deviceMedia?.currentTime)
        #expect(position == 48)

        try await rig.run { await context.sessionManager.endSession() }
        #expect(!context.sessionManager.hasConnectedSession)
        #expect(client.lastKnownPlayerState == .paused)
        #expect(client.lastKnownStreamPosition == position)
        try await withDeadline(TestTiming.hangGuard, "didEnd") { await recorder.wait(for: "didEnd") }
        #expect(recorder.names == ["willStart", "didStart", "willEnd", "didEnd"])
        // Leaving (not stopping) keeps the receiver app and its media on the device.
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == session.sessionID)
        #expect(rig.deviceMedia?.playerState == .paused)
        // The device sees the connection close when the loop carries it, which can be after
        // endSession returned: checked at once, the count was 1 on a loaded run.
        try await rig.run(until: "the device sees the connection close") { rig.device.connectionCount == 0 }
    }
}
