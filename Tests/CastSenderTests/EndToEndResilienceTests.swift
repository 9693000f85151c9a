import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against the real device over TLS on loopback: a session that outlives its context
/// is rejoined by a new one. The device's fault injection (dropped connections, lost
/// heartbeats, late replies, refused launches, restarts) is exercised in
/// ``FaultInjectionTests``.
@Suite struct EndToEndResilienceTests {
    static let media = MediaInformation(
        contentId: "http://127.0.0.1:9/movie.mp4",
        streamType: .buffered,
        contentType: "video/mp4",
        duration: 600
    )

    static func options(_ rig: EndToEndRig, store: URL? = nil) -> CastOptions {
        rig.options {
            $0.heartbeatInterval = TestTiming.scaled(.milliseconds(200))
            $0.heartbeatTimeout = TestTiming.scaled(.milliseconds(700))
            $0.requestTimeout = TestTiming.scaled(.seconds(2))
            $0.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(300), jitter: 0, maximumAttempts: 5)
            $0.sessionStoreURL = store
        }
    }

    /// A started session with media playing on the device.
    static func playing(
        _ rig: EndToEndRig,
        _ context: CastContext
    ) async throws -> CastSession {
        let session = try await context.sessionManager.startSession(with: rig.target)
        try await session.remoteMediaClient.load(LoadRequestData(media: Self.media, autoplay: true)).result
        try #require(await rig.eventually { rig.deviceMedia?.playerState == .playing })
        return session
    }

    @Test func aNewContextRejoinsThePersistedSessionWithoutASecondLaunch() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cast-e2e-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = try await EndToEndRig.start()
        let first = CastContext(options: Self.options(rig, store: store))
        let session = try await Self.playing(rig, first)
        #expect(FileManager.default.fileExists(atPath: store.path))

        var options = Self.options(rig, store: store)
        options.resumesSavedSession = false
        let second = CastContext(options: options)
        let recorder = EventRecorder()
        second.sessionManager.add(recorder)
        let rejoined = try await second.sessionManager.resumeSavedSession()
        #expect(rejoined.sessionID == session.sessionID)
        #expect(await rig.eventually { rejoined.remoteMediaClient.mediaStatus?.playerState == .playing })
        #expect(rejoined.remoteMediaClient.mediaStatus?.mediaSessionId == rig.deviceMedia?.mediaSessionId)
        try await rejoined.remoteMediaClient.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        await rig.drain()
        #expect(recorder.names == ["willResume", "didResume"])
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        await second.sessionManager.endSession(stopCasting: true)
        #expect(
            rig.device.engineSnapshot?.runningApplication?.appId != DiscoveryCriteria.defaultMediaReceiverApplicationID
        )
        await first.sessionManager.endSession()
        await rig.device.stop()
    }
}
