import CastCore
import CastEmulator
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Testing

@testable import CastSender

/// The SDK's sessions, media commands, heartbeat and request timeouts against the virtual
/// device's engine, in memory (``InMemoryRig``): each step happens when the test runs the
/// loop or advances its clock, so the tests wait for nothing and take milliseconds.
@Suite struct InMemorySessionTests {
    static let media = MediaInformation(
        contentID: "http://127.0.0.1:9/movie.mp4",
        streamType: .buffered,
        contentType: "video/mp4",
        duration: 600
    )

    /// A started session with the media loaded and playing on the device.
    static func playing(_ rig: InMemoryRig, _ context: CastContext) async throws -> CastSession {
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }
        let load = session.remoteMediaClient.load(LoadRequestData(media: Self.media, autoplay: true))
        try await rig.run(until: "the LOAD reaches the device") { rig.deviceMedia?.playerState == .buffering }
        rig.advance(by: .milliseconds(200))
        try await rig.run("the LOAD's answer") { try await load.result }
        try #require(rig.deviceMedia?.playerState == .playing)
        return session
    }

    @Test func aSessionStartsAndItsLoadBuffersThenPlays() async throws {
        let rig = InMemoryRig()
        let context = rig.context(rig.options())
        let events = SessionEventLog()
        context.sessionManager.add(events)
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: rig.target)
        }
        #expect(context.sessionManager.hasConnectedSession)
        #expect(rig.device.connectionCount == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.appID == "CC1AD845")
        #expect(session.sessionID == rig.device.engineSnapshot?.runningApplication?.sessionID)

        let client = session.remoteMediaClient
        let load = client.load(LoadRequestData(media: Self.media, autoplay: true))
        try await rig.run(until: "the LOAD reaches the device") { rig.deviceMedia?.playerState == .buffering }
        // The device buffers for 200 ms of its clock, and answers the LOAD once it plays.
        rig.advance(by: .milliseconds(199))
        #expect(rig.deviceMedia?.playerState == .buffering)
        #expect(load.inProgress)
        rig.advance(by: .milliseconds(1))
        #expect(rig.deviceMedia?.playerState == .playing)
        try await rig.run("the LOAD's answer") { try await load.result }
        #expect(client.mediaStatus?.playerState == .playing)
        rig.advance(by: .seconds(3))
        #expect(client.approximateStreamPosition == 3)
        #expect(rig.deviceMedia?.currentTime == 3)

        try await rig.run("the session end") { await context.sessionManager.endSession(stopCasting: true) }
        #expect(rig.device.engineSnapshot?.runningApplication?.appID != "CC1AD845")
        await events.wait(for: "didEnd")
        #expect(events.names == ["willStart", "didStart", "willEnd", "didEnd"])
    }

    @Test func pauseAndSeekChangeTheDevicesPlayer() async throws {
        let rig = InMemoryRig()
        let context = rig.context(rig.options())
        let session = try await Self.playing(rig, context)
        let client = session.remoteMediaClient
        rig.advance(by: .seconds(10))
        try await rig.run("the PAUSE") { try await client.pause().result }
        #expect(rig.deviceMedia?.playerState == .paused)
        #expect(client.mediaStatus?.playerState == .paused)
        #expect(rig.deviceMedia?.currentTime == 10)
        // Paused, the position stays put however long the clock runs.
        rig.advance(by: .seconds(30))
        #expect(rig.deviceMedia?.currentTime == 10)

        try await rig.run("the SEEK") { try await client.seek(MediaSeekOptions(interval: 42)).result }
        #expect(rig.deviceMedia?.currentTime == 42)
        #expect(client.mediaStatus?.currentTime == 42)
        #expect(rig.deviceMedia?.playerState == .paused)

        try await rig.run("the PLAY") { try await client.play().result }
        rig.advance(by: .seconds(5))
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(rig.deviceMedia?.currentTime == 47)
        #expect(client.approximateStreamPosition == 47)
    }

    @Test func heartbeatsKeepTheSessionAndMissedPongsSuspendItUntilItResumes() async throws {
        let rig = InMemoryRig()
        // A ping a second: the device, which pings a sender silent for 5 s, never needs to,
        // so only its PONGs keep the SDK's heartbeat (a PING from the device would too).
        let context = rig.context(
            rig.options {
                $0.heartbeatInterval = .seconds(1)
                $0.heartbeatTimeout = .seconds(3)
            }
        )
        let events = SessionEventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)
        // A minute of answered pings: the session stays connected on one connection.
        rig.advance(by: .seconds(60))
        #expect(session.connectionState == .connected)
        #expect(rig.connects.withLock { $0 } == 1)
        #expect(rig.log.inbound(type: "PING").count == 60)

        // The last PONG answered the ping of second 60; the clock is at 60.2 s.
        rig.device.faults.ignoresPings = true
        rig.advance(by: .milliseconds(2_500))
        #expect(!session.isSuspended, "at 62.7 s the last PONG is 2.7 s old, the timeout 3 s")
        rig.advance(by: .milliseconds(500))
        try await rig.run("the suspension") { await events.wait(for: "didSuspend") }
        #expect(session.isSuspended)
        #expect(session.lastConnectionLossError?.reason.contains("heartbeat") == true)

        rig.device.faults.ignoresPings = false
        // The loss was seen at 63 s, by the tick of that second; the first reconnection
        // attempt comes the backoff's first delay, a second, later: at 64 s.
        rig.advance(by: .milliseconds(799))
        #expect(rig.connects.withLock { $0 } == 1)
        rig.advance(by: .milliseconds(1))
        try await rig.run("the resume") { await events.wait(for: "didResume") }
        #expect(events.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        #expect(rig.connects.withLock { $0 } == 2)
        #expect(session.connectionState == .connected)
        // The receiver app and its media session carried on: no second launch.
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        #expect(session.remoteMediaClient.mediaStatus?.mediaSessionID == rig.deviceMedia?.mediaSessionID)
        try await rig.run("the PAUSE") { try await session.remoteMediaClient.pause().result }
        #expect(rig.deviceMedia?.playerState == .paused)
    }

    @Test func aRequestTheDeviceAnswersTooLateTimesOut() async throws {
        let rig = InMemoryRig()
        let context = rig.context(rig.options { $0.requestTimeout = .seconds(4) })
        let session = try await Self.playing(rig, context)
        let client = session.remoteMediaClient
        rig.device.replyDelay = .seconds(30)
        let request = client.pause()
        // The device pauses at once; only its answer is held back.
        try await rig.run(until: "the PAUSE reaches the device") { rig.deviceMedia?.playerState == .paused }
        rig.advance(by: .milliseconds(3_999))
        #expect(request.inProgress)
        rig.advance(by: .milliseconds(1))
        #expect(request.error?.code == .timeout)
        let outcome = await request.waitForOutcome()
        #expect(outcome == .failed(CastError(.timeout, "")))
    }
}
