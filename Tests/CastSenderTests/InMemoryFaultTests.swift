import CastCore
import CastEmulator
import CastNetEmbedded
import CastSync
import CastTestSupport
import Testing

@testable import CastSender

/// The device's faults that change what it answers (a refused launch, a reboot, a restarted
/// receiver app), against its engine in memory (``InMemoryRig``): the reconnection waits
/// exactly its backoff on the manual clock. The faults of the transport in real time over TLS
/// (dropped connections, stopped PONGs, late replies, broken frames) stay in
/// ``FaultInjectionTests``.
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
}
