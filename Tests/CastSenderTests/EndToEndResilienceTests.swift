import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against the real device's fault injection, over TLS on loopback, in real time with
/// short heartbeat, backoff and request timeouts (longer in a slow, sanitized run).
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

    @Test func droppedConnectionsSuspendAndResumeWithPlaybackRunning() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: Self.options(rig))
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await Self.playing(rig, context)
        let mediaSession = rig.deviceMedia?.mediaSessionId

        rig.device.dropAllConnections()
        #expect(await rig.eventually { recorder.names.contains("didSuspend") })
        #expect(await rig.eventually { recorder.names.contains("didResume") })
        #expect(session.connectionState == .connected)
        await rig.drain()
        #expect(recorder.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        // The receiver session and its playback lived through the drop.
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == session.sessionID)
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(rig.deviceMedia?.mediaSessionId == mediaSession)
        #expect(await rig.eventually { session.remoteMediaClient.mediaStatus?.playerState == .playing })
        try await session.remoteMediaClient.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    @Test func missingPongsAreDetectedAndTheSessionReconnects() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: Self.options(rig))
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await Self.playing(rig, context)

        rig.device.faults.ignoresPings = true
        #expect(await rig.eventually { recorder.names.contains("didSuspend") })
        rig.device.faults.ignoresPings = false
        #expect(await rig.eventually { recorder.names.contains("didResume") })
        #expect(session.connectionState == .connected)
        await rig.drain()
        #expect(recorder.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        #expect(rig.log.all.contains { $0.direction == .inbound && $0.payload.contains("PING") })
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.deviceMedia?.playerState == .playing)
        try await session.remoteMediaClient.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    @Test func refusedLaunchFailsTheStartWithTheReceiversReason() async throws {
        let rig = try await EndToEndRig.start()
        rig.device.faults.launchRefusal = .notAllowed
        let context = CastContext(options: Self.options(rig))
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        do {
            _ = try await context.sessionManager.startSession(with: rig.target)
            Issue.record("the session started although the device refuses LAUNCH")
        } catch {
            #expect(error.code == .notAllowed)
            #expect(error.wireReason == "NOT_ALLOWED")
        }
        await rig.drain()
        #expect(recorder.names == ["willStart", "didFailToStart"])
        #expect(recorder.errors.first??.wireReason == "NOT_ALLOWED")
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(
            rig.device.engineSnapshot?.runningApplication?.appId != DiscoveryCriteria.defaultMediaReceiverApplicationID
        )
        await rig.device.stop()
    }

    @Test func delayedRepliesTimeOutAndLeaveNoPendingRequest() async throws {
        let rig = try await EndToEndRig.start()
        var options = Self.options(rig)
        // PONGs are held back as well: keep the heartbeat out of the way.
        options.heartbeatInterval = TestTiming.scaled(.seconds(5))
        options.heartbeatTimeout = TestTiming.scaled(.seconds(10))
        let context = CastContext(options: options)
        let session = try await Self.playing(rig, context)
        let client = session.remoteMediaClient

        rig.device.replyDelay = TestTiming.scaled(.seconds(3))
        let pause = client.pause()
        let volume = client.setStreamVolume(0.5)
        #expect(session.pendingRequestCount >= 2)
        for request in [pause, volume] {
            let outcome = await request.waitForOutcome()
            #expect(outcome == .failed(CastError(.timeout, "")))
            #expect(request.error?.code == .timeout)
        }
        #expect(session.pendingRequestCount == 0)
        // The device did act on the commands; only their replies were late.
        #expect(rig.deviceMedia?.playerState == .paused)
        rig.device.replyDelay = .zero
        try await client.play().result
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(session.pendingRequestCount == 0)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
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
