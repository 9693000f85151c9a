import CastCore
import CastEmulator
import CastNet
import Testing

@testable import CastSender

/// A task that prefers a session's executor runs on the thread that reads the session's
/// connection: its commands are sent and their replies resume it there, over real TLS.
@Suite struct SessionTaskExecutorTests {
    static let media = MediaInformation(
        contentID: "https://example.com/clip.mp4",
        streamType: .buffered,
        contentType: "video/mp4"
    )

    @Test func commandsResumeOnTheConnectionsThread() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: rig.options())
        let session = try await context.sessionManager.startSession(with: rig.target)
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: Self.media, autoplay: true)).result
        #expect(!session.isOnConnectionThread, "a task without the preference runs elsewhere")
        let resumedOnLoop = try await withTaskExecutorPreference(session.taskExecutor) {
            var resumedOnLoop: [Bool] = []
            for pause in [true, false, true] {
                try await (pause ? client.pause() : client.play()).result
                resumedOnLoop.append(session.isOnConnectionThread)
            }
            return resumedOnLoop
        }
        #expect(resumedOnLoop == [true, true, true])
        #expect(client.mediaStatus?.playerState == .paused)
        await context.sessionManager.endSession(stopCasting: true)
        // With no connection, a task preferring the executor runs on the global executor.
        let ranWithoutConnection = await withTaskExecutorPreference(session.taskExecutor) {
            await Task.yield()
            return !session.isOnConnectionThread
        }
        #expect(ranWithoutConnection)
        await rig.device.stop()
    }
}
