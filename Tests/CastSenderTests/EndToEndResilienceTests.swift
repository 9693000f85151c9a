import CastCore
import CastSenderTestSupport
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against the virtual device's engine in memory (``InMemoryRig``): a session that
/// outlives its context is rejoined by a new one. The device's fault injection in real time
/// over TLS (dropped connections, lost heartbeats, late replies, refused launches, restarts)
/// is exercised in ``FaultInjectionTests``; heartbeat loss and late replies on the manual
/// clock in ``InMemorySessionTests``.
@Suite struct EndToEndResilienceTests {
    static let media = MediaInformation(
        contentID: "http://127.0.0.1:9/movie.mp4",
        streamType: .buffered,
        contentType: "video/mp4",
        duration: 600
    )

    static func options(_ rig: InMemoryRig, store: URL? = nil) -> CastOptions {
        rig.options {
            $0.heartbeatInterval = .milliseconds(200)
            $0.heartbeatTimeout = .milliseconds(700)
            $0.requestTimeout = .seconds(2)
            $0.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(300), jitter: 0, maximumAttempts: 5)
            $0.sessionStoreURL = store
        }
    }

    /// A started session with media playing on the device.
    static func playing(_ rig: InMemoryRig, _ context: CastContext) async throws -> CastSession {
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        try await rig.run {
            try await session.remoteMediaClient.load(LoadRequestData(media: Self.media, autoplay: true)).result
        }
        #expect(rig.deviceMedia?.playerState == .playing)
        return session
    }

    @Test func aNewContextRejoinsThePersistedSessionWithoutASecondLaunch() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cast-e2e-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: store) }
        let rig = InMemoryRig { $0.bufferingDelay = .zero }
        let first = rig.context(Self.options(rig, store: store))
        let session = try await Self.playing(rig, first)
        #expect(FileManager.default.fileExists(atPath: store.path))

        var options = Self.options(rig, store: store)
        options.resumesSavedSession = false
        let second = rig.context(options)
        let recorder = SessionEventLog()
        second.sessionManager.add(recorder)
        let rejoined = try await rig.run { try await second.sessionManager.resumeSavedSession() }
        #expect(rejoined.sessionID == session.sessionID)
        #expect(rejoined.remoteMediaClient.mediaStatus?.playerState == .playing)
        #expect(rejoined.remoteMediaClient.mediaStatus?.mediaSessionID == rig.deviceMedia?.mediaSessionID)
        try await rig.run { try await rejoined.remoteMediaClient.pause().result }
        #expect(rig.deviceMedia?.playerState == .paused)
        try await rig.run { await recorder.wait(for: "didResume") }
        #expect(recorder.names == ["willResume", "didResume"])
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        try await rig.run { await second.sessionManager.endSession(stopCasting: true) }
        #expect(
            rig.device.engineSnapshot?.runningApplication?.appID != DiscoveryCriteria.defaultMediaReceiverApplicationID
        )
        try await rig.run { await first.sessionManager.endSession() }
    }
}
