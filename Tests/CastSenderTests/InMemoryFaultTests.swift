import CastCore
import CastEmulator
import CastNetEmbedded
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Testing

@testable import CastSender

/// The device's faults against its engine in memory (``InMemoryRig``): a refused launch, a
/// reboot, a restarted receiver app, dropped connections and replies held past the request
/// timeout; the reconnection waits exactly its backoff on the manual clock. (Stopped PONGs:
/// ``InMemorySessionTests``.) Broken frames, whose subject is the framing over real TLS and
/// the memory they may make a peer hold, stay in ``FaultInjectionTests``.
@Suite struct InMemoryFaultTests {
    static func options(_ rig: InMemoryRig) -> CastOptions {
        rig.options {
            $0.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(300), jitter: 0, maximumAttempts: 5)
        }
    }

    static func playing(_ rig: InMemoryRig, _ context: CastContext) async throws -> CastSession {
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        try await rig.run {
            try await session.remoteMediaClient.load(LoadRequestData(media: InMemorySessionTests.media)).result
        }
        try #require(rig.deviceMedia?.playerState == .playing)
        return session
    }

    @Test(arguments: [
        (LaunchErrorReason.notAllowed, CastError.Code.notAllowed),
        (LaunchErrorReason(rawValue: "CANCELLED"), CastError.Code.cancelled),
    ])
    func aRefusedLaunchFailsTheStartWithTheReceiversReason(
        refusal: LaunchErrorReason,
        code: CastError.Code
    ) async throws {
        let rig = InMemoryRig()
        rig.device.faults.launchRefusal = refusal
        let context = rig.context(Self.options(rig))
        let events = SessionEventLog()
        context.sessionManager.add(events)
        await #expect {
            _ = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        } throws: { error in
            guard let error = error as? CastError else { return false }
            return error.code == code && error.wireReason == refusal.rawValue
        }
        try await withDeadline(TestTiming.hangGuard, "didFailToStart") { await events.wait(for: "didFailToStart") }
        #expect(events.names == ["willStart", "didFailToStart"])
        let error = try #require(events.errors.first ?? nil)
        #expect(error.code == code)
        #expect(error.wireReason == refusal.rawValue)
        #expect(error.description.contains(refusal.rawValue))
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(context.sessionManager.currentSession == nil)
        #expect(
            rig.device.engineSnapshot?.runningApplication?.appID != DiscoveryCriteria.defaultMediaReceiverApplicationID
        )
    }

    /// A restart that gives the receiver session a new ID, and what the policy makes of it.
    struct Restart: Sendable, CustomTestStringConvertible {
        var name: String
        var inject: @Sendable (VirtualDevice) -> Void
        var events: [String]
        var errorMentions: String

        var testDescription: String { name }

        static let all: [Restart] = [
            // The whole device: the connection drops, the resume finds the receiver session
            // gone and gives up at once (no retry can bring it back); the session ends.
            Restart(
                name: "device reboot",
                inject: { $0.reboot() },
                events: ["willStart", "didStart", "didSuspend", "willResume", "didFailToResume", "didEnd"],
                errorMentions: "no longer running"
            ),
            // Only the receiver app, with the connection kept: the device closes the app's
            // virtual connection and the session ends.
            Restart(
                name: "receiver app restart",
                inject: { $0.restartApplication() },
                events: ["willStart", "didStart", "willEnd", "didEnd"],
                errorMentions: "closed the connection"
            ),
        ]
    }

    @Test(arguments: Restart.all)
    func aRestartWithNewSessionIDsEndsTheSessionWithAClearErrorAndANewOneStarts(_ restart: Restart) async throws {
        let rig = InMemoryRig { $0.bufferingDelay = .zero }
        let context = rig.context(Self.options(rig))
        let events = SessionEventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)
        let oldSessionID = try #require(session.sessionID)

        restart.inject(rig.device)
        rig.loop.run()
        // A reboot's dropped connection is retried once the backoff's 300 ms have passed.
        rig.advance(by: .milliseconds(299))
        #expect(rig.connects.withLock { $0 } == 1)
        rig.advance(by: .milliseconds(1))
        try await rig.run("didEnd") { await events.wait(for: "didEnd") }
        #expect(events.names == restart.events)
        for error in events.errors {
            #expect(error?.code == .applicationNotRunning, "\(String(describing: error))")
            #expect(error?.reason.contains(restart.errorMentions) == true, "\(String(describing: error))")
        }
        #expect(events.errors.count == restart.events.filter { $0.hasPrefix("didFail") || $0 == "didEnd" }.count)
        #expect(session.connectionState == .disconnected)
        #expect(context.sessionManager.currentSession == nil)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.connects.withLock { $0 } == (restart.events.contains("willResume") ? 2 : 1))
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID != oldSessionID)

        // A new session gets the receiver session the device has now, with a new ID.
        let fresh = try await Self.playing(rig, context)
        let newSessionID = try #require(fresh.sessionID)
        #expect(newSessionID != oldSessionID)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == newSessionID)
    }

    /// Listener events in order, and a signal at each.
    static func eventLog() -> (FaultEventLog, ChangeSignal) {
        let changes = ChangeSignal()
        return (FaultEventLog { _ in changes.notify() }, changes)
    }

    @Test func droppedConnectionsMidPlaybackResumeAfterTheBackoffWithEveryEventOnce() async throws {
        let rig = InMemoryRig { $0.bufferingDelay = .zero }
        let context = rig.context(Self.options(rig))
        let (events, changes) = Self.eventLog()
        context.sessionManager.add(events)
        let session = try await rig.run { try await context.sessionManager.startSession(with: rig.target) }
        session.remoteMediaClient.add(events)
        try await rig.run {
            try await session.remoteMediaClient.load(LoadRequestData(media: InMemorySessionTests.media)).result
        }
        let mediaSession = try #require(rig.deviceMedia?.mediaSessionID)
        #expect(
            try await rig.run("the media session's start") {
                await changes.wait { events.names.contains("mediaSessionStarted \(mediaSession)") }
            }
        )
        let before = events.names
        #expect(before == ["willStart", "didStart", "mediaSessionStarted \(mediaSession)"])

        rig.device.dropAllConnections()
        #expect(try await rig.run("the suspension") { await changes.wait { events.names.contains("didSuspend") } })
        #expect(session.isSuspended)
        #expect(session.lastConnectionLossError?.code == .disconnected)
        // The first attempt comes the backoff's first delay, 300 ms, after the loss.
        rig.advance(by: .milliseconds(299))
        #expect(rig.connects.withLock { $0 } == 1)
        rig.advance(by: .milliseconds(1))
        #expect(try await rig.run("the resume") { await changes.wait { events.names.contains("didResume") } })
        #expect(rig.connects.withLock { $0 } == 2)
        #expect(session.connectionState == .connected)
        // Every listener event exactly once, in order, and no second media session.
        #expect(events.names == before + ["didSuspend", "willResume", "didResume"])
        // The receiver session and its playback lived through the drop.
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.log.inbound(type: "LOAD").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionID == session.sessionID)
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(rig.deviceMedia?.mediaSessionID == mediaSession)
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        #expect(session.remoteMediaClient.mediaStatus?.mediaSessionID == mediaSession)
        try await rig.run("the PAUSE") { try await session.remoteMediaClient.pause().result }
        #expect(rig.deviceMedia?.playerState == .paused)
        #expect(session.pendingRequestCount == 0)
    }

    @Test func repliesDelayedPastTheRequestTimeoutFailTypedAndLeaveNothingPending() async throws {
        // The delay holds every frame the device sends, PINGs and PONGs too: keep both
        // heartbeats out of the way.
        let rig = InMemoryRig {
            $0.bufferingDelay = .zero
            $0.pingInterval = .seconds(3_600)
        }
        let context = rig.context(
            rig.options {
                $0.requestTimeout = .milliseconds(1_500)
                $0.heartbeatInterval = .seconds(60)
                $0.heartbeatTimeout = .seconds(120)
            }
        )
        let (events, _) = Self.eventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)
        let client = session.remoteMediaClient
        // Requests the SDK makes on its own (the queue's item ids) have settled.
        try await rig.run(until: "the SDK's own requests to settle") { session.pendingRequestCount == 0 }
        let sentBefore = rig.log.all.count

        rig.device.replyDelay = .seconds(4)
        let requests = [
            client.pause(),
            client.setStreamVolume(0.5),
            client.seek(MediaSeekOptions(interval: 30)),
            session.setDeviceVolume(0.3),
        ]
        #expect(session.pendingRequestCount == requests.count)
        let asked = { @Sendable in
            Set(
                rig.log.all.dropFirst(sentBefore).filter { $0.direction == .inbound }.compactMap(
                    FaultInjectionTests.requestID
                )
            )
        }
        try await rig.run(until: "the four requests at the device") { asked().count == requests.count }
        rig.advance(by: .milliseconds(1_499))
        for request in requests { #expect(request.inProgress, "\(request)") }
        rig.advance(by: .milliseconds(1))
        for request in requests {
            #expect(request.error?.code == .timeout, "\(request)")
            #expect(request.error?.reason.contains("no reply in time") == true)
            #expect(await request.waitForOutcome() == .failed(CastError(.timeout, "")))
        }
        #expect(session.pendingRequestCount == 0)

        // The late replies arrive after their requests gave up: nothing settles twice and
        // nothing is left behind.
        rig.advance(by: .seconds(4))
        let answered = Set(
            rig.log.all.dropFirst(sentBefore).filter { $0.direction == .outbound }.compactMap(
                FaultInjectionTests.requestID
            )
        )
        #expect(asked().isSubset(of: answered))
        for request in requests { #expect(request.error?.code == .timeout) }
        #expect(session.pendingRequestCount == 0)
        #expect(session.connectionState == .connected)
        #expect(rig.deviceMedia?.playerState == .paused)

        rig.device.replyDelay = .zero
        try await rig.run("the PLAY") { try await client.play().result }
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(session.pendingRequestCount == 0)
        #expect(events.names == ["willStart", "didStart"])
    }
}
