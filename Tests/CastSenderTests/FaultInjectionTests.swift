import CastCore
import CastNet
import Foundation
import Synchronization
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK (context, session manager, session, remote media client) against the real virtual
/// device over TLS on loopback, with the device's fault controls: the resilience the Cast
/// sender promises, checked end to end in real time with short configured timings.
@Suite("Fault injection") struct FaultInjectionTests {
    static let media = MediaInformation(
        contentId: "http://127.0.0.1:9/movie.mp4",
        streamType: .buffered,
        contentType: "video/mp4",
        duration: 600
    )

    /// The cap on every wait: far above the timings under test, so a loaded machine only
    /// makes a test slower, never wrong.
    static let cap = Duration.seconds(30)

    static func options(_ rig: EndToEndRig, configure: (inout CastOptions) -> Void = { _ in }) -> CastOptions {
        rig.options {
            $0.heartbeatInterval = .milliseconds(200)
            $0.heartbeatTimeout = .milliseconds(1_000)
            $0.requestTimeout = .seconds(5)
            $0.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(300), jitter: 0, maximumAttempts: 5)
            configure(&$0)
        }
    }

    /// Starts a session on `rig`'s device with the media playing there.
    static func playing(
        _ rig: EndToEndRig,
        _ context: CastContext,
        mediaListener: (any RemoteMediaClientListener)? = nil
    ) async throws -> CastSession {
        let session = try await context.sessionManager.startSession(with: rig.target)
        if let mediaListener { session.remoteMediaClient.add(mediaListener) }
        try await session.remoteMediaClient.load(LoadRequestData(media: media, autoplay: true)).result
        try #require(await rig.eventually(timeout: cap) { rig.deviceMedia?.playerState == .playing })
        return session
    }

    // MARK: Dropped connections

    @Test func droppedConnectionsMidPlaybackResumeWithin5sWithEveryEventOnce() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: Self.options(rig))
        let events = FaultEventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context, mediaListener: events)
        let mediaSession = try #require(rig.deviceMedia?.mediaSessionId)
        await rig.drain()
        let before = events.names
        #expect(before == ["willStart", "didStart", "mediaSessionStarted \(mediaSession)"])

        let dropped = ContinuousClock.now
        rig.device.dropAllConnections()
        #expect(await rig.eventually(timeout: Self.cap) { events.names.contains("didResume") })
        let resumed = try #require(events.time(of: "didResume"))
        let resumeTime = dropped.duration(to: resumed)
        print("fault injection: dropped connections → resumed after \(resumeTime)")
        #expect(resumeTime <= .seconds(5), "resumed \(resumeTime) after the drop")

        #expect(session.connectionState == .connected)
        #expect(session.lastConnectionLossError?.code == .disconnected)
        // Every listener event exactly once, in order: the start, one suspend and one resume,
        // and no second media session.
        await rig.drain()
        #expect(events.names == before + ["didSuspend", "willResume", "didResume"])
        // The receiver session and its playback lived through the drop.
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.log.inbound(type: "LOAD").count == 1)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == session.sessionID)
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(rig.deviceMedia?.mediaSessionId == mediaSession)
        #expect(
            await rig.eventually(timeout: Self.cap) {
                session.remoteMediaClient.mediaStatus?.playerState == .playing
                    && session.remoteMediaClient.mediaStatus?.mediaSessionId == mediaSession
            }
        )
        try await session.remoteMediaClient.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        #expect(session.pendingRequestCount == 0)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    // MARK: Heartbeat loss

    @Test func stoppedPongsAreDetectedWithinTheHeartbeatWindowThenTheSessionReconnects() async throws {
        let rig = try await EndToEndRig.start()
        let interval = Duration.milliseconds(250)
        let timeout = Duration.seconds(1)
        let context = CastContext(
            options: Self.options(rig) {
                $0.heartbeatInterval = interval
                $0.heartbeatTimeout = timeout
            }
        )
        // The device answers PINGs again as soon as the loss is reported, before the
        // reconnection is due, so the resumed connection keeps its heartbeat.
        let events = FaultEventLog { name in
            if name == "didSuspend" { rig.device.faults.ignoresPings = false }
        }
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)

        let stopped = ContinuousClock.now
        rig.device.faults.ignoresPings = true
        #expect(await rig.eventually(timeout: Self.cap) { events.names.contains("didSuspend") })
        let detected = try #require(events.time(of: "didSuspend"))
        let detection = stopped.duration(to: detected)
        print("fault injection: PONGs stopped → loss detected after \(detection) (window \(timeout) + \(interval))")
        // Not before the silence could have reached the timeout (the last PONG came at most
        // one interval before the fault), and within the window plus scheduling slack.
        #expect(detection >= timeout - interval, "detected \(detection) after the PONGs stopped")
        #expect(detection <= timeout + interval + .seconds(4), "detected \(detection) after the PONGs stopped")
        let loss = try #require(session.lastConnectionLossError)
        #expect(loss.code == .disconnected)
        #expect(loss.reason.contains("heartbeat"))

        #expect(await rig.eventually(timeout: Self.cap) { events.names.contains("didResume") })
        let resumed = try #require(events.time(of: "didResume"))
        print("fault injection: PONGs stopped → reconnected after \(stopped.duration(to: resumed))")
        #expect(session.connectionState == .connected)
        await rig.drain()
        #expect(events.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        #expect(rig.log.inbound(type: "PING").count > 0)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(rig.deviceMedia?.playerState == .playing)
        try await session.remoteMediaClient.pause().result
        #expect(rig.deviceMedia?.playerState == .paused)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    // MARK: Late replies

    @Test func repliesDelayedPastTheRequestTimeoutFailTypedAndLeaveNothingPending() async throws {
        let rig = try await EndToEndRig.start()
        let requestTimeout = Duration.seconds(1)
        let delay = Duration.seconds(3)
        let context = CastContext(
            options: Self.options(rig) {
                $0.requestTimeout = requestTimeout
                // PONGs would be held back too, and would hold later replies behind them:
                // keep the heartbeat out of the way.
                $0.heartbeatInterval = .seconds(60)
                $0.heartbeatTimeout = .seconds(120)
            }
        )
        let events = FaultEventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)
        let client = session.remoteMediaClient
        // Requests the SDK makes on its own (the queue's item ids) have settled.
        #expect(await rig.eventually(timeout: Self.cap) { session.pendingRequestCount == 0 })
        let sentBefore = rig.log.all.count

        rig.device.replyDelay = delay
        let requests = [
            client.pause(),
            client.setStreamVolume(0.5),
            client.seek(MediaSeekOptions(interval: 30)),
            session.setDeviceVolume(0.3),
        ]
        #expect(session.pendingRequestCount == requests.count)
        for request in requests {
            let outcome = await request.waitForOutcome()
            #expect(outcome == .failed(CastError(.timeout, "")), "\(request)")
            #expect(request.error?.code == .timeout)
            #expect(request.error?.reason.contains("no reply in time") == true)
        }
        #expect(session.pendingRequestCount == 0)

        // The late replies arrive after their requests gave up: nothing settles twice and
        // nothing is left behind.
        let asked = Set(
            rig.log.all.dropFirst(sentBefore).filter { $0.direction == .inbound }.compactMap(Self.requestID)
        )
        #expect(asked.count == requests.count)
        #expect(
            await rig.eventually(timeout: Self.cap) {
                let answered = Set(
                    rig.log.all.dropFirst(sentBefore).filter { $0.direction == .outbound }.compactMap(Self.requestID)
                )
                return asked.isSubset(of: answered)
            }
        )
        await rig.drain()
        for request in requests { #expect(request.error?.code == .timeout) }
        #expect(session.pendingRequestCount == 0)
        #expect(session.connectionState == .connected)
        #expect(rig.deviceMedia?.playerState == .paused)

        rig.device.replyDelay = .zero
        try await client.play().result
        #expect(rig.deviceMedia?.playerState == .playing)
        #expect(session.pendingRequestCount == 0)
        await rig.drain()
        #expect(events.names == ["willStart", "didStart"])
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    // MARK: Refused launch

    @Test(arguments: [
        (LaunchErrorReason.notAllowed, CastError.Code.notAllowed),
        (LaunchErrorReason(rawValue: "CANCELLED"), CastError.Code.cancelled),
    ])
    func refusedLaunchFailsTheStartWithTheReceiversReason(
        refusal: LaunchErrorReason,
        code: CastError.Code
    ) async throws {
        let rig = try await EndToEndRig.start()
        rig.device.faults.launchRefusal = refusal
        let context = CastContext(options: Self.options(rig))
        let events = FaultEventLog()
        context.sessionManager.add(events)
        await #expect {
            _ = try await context.sessionManager.startSession(with: rig.target)
        } throws: { error in
            guard let error = error as? CastError else { return false }
            return error.code == code && error.wireReason == refusal.rawValue
        }
        await rig.drain()
        #expect(events.names == ["willStart", "didFailToStart"])
        let error = try #require(events.errors.first ?? nil)
        #expect(error.code == code)
        #expect(error.wireReason == refusal.rawValue)
        #expect(error.description.contains(refusal.rawValue))
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)
        #expect(context.sessionManager.currentSession == nil)
        await rig.device.stop()
    }

    // MARK: Restarted device

    @Test func aRestartedDeviceWithNewSessionIDsFailsTheResumeClearlyAndANewSessionStarts() async throws {
        let rig = try await EndToEndRig.start()
        let context = CastContext(options: Self.options(rig))
        let events = FaultEventLog()
        context.sessionManager.add(events)
        let session = try await Self.playing(rig, context)
        let oldSessionID = try #require(session.sessionID)

        rig.device.reboot()
        #expect(await rig.eventually(timeout: Self.cap) { events.names.contains("didEnd") })
        await rig.drain()
        // The policy: a resume rejoins only the same receiver session; after a restart it is
        // gone, so the resume fails once, without retrying, and the session ends.
        #expect(events.names == ["willStart", "didStart", "didSuspend", "willResume", "didFailToResume", "didEnd"])
        let error = try #require(events.errors.first ?? nil)
        #expect(error.code == .applicationNotRunning)
        #expect(error.reason.contains(oldSessionID))
        #expect(error.reason.contains("no longer running"))
        #expect(events.errors.last??.code == .applicationNotRunning)
        #expect(session.connectionState == .disconnected)
        #expect(rig.log.inbound(type: "LAUNCH").count == 1)

        // A new session launches the app again, with a new receiver session ID.
        let fresh = try await Self.playing(rig, context)
        let newSessionID = try #require(fresh.sessionID)
        #expect(newSessionID != oldSessionID)
        #expect(rig.device.engineSnapshot?.runningApplication?.sessionId == newSessionID)
        #expect(rig.log.inbound(type: "LAUNCH").count == 2)
        await context.sessionManager.endSession(stopCasting: true)
        await rig.device.stop()
    }

    // MARK: Misbehaving peer

    /// How a device breaks the stream, and what the sender must make of it.
    struct Misbehaviour: Sendable, CustomTestStringConvertible {
        var name: String
        var inject: @Sendable (VirtualDevice) -> Void
        var code: CastError.Code
        var connectionCode: CastConnectionError.Code?

        var testDescription: String { name }

        static let all: [Misbehaviour] = [
            Misbehaviour(name: "garbage frame", inject: { $0.sendGarbageFrames() }, code: .protocolError),
            Misbehaviour(
                name: "oversize length",
                inject: { $0.sendOversizeFrameHeaders() },
                code: .protocolError,
                connectionCode: .framing
            ),
            Misbehaviour(
                name: "one byte per second",
                inject: { $0.trickleFrames(every: .seconds(1)) },
                code: .timeout,
                connectionCode: .frameTimeout
            ),
        ]
    }

    @Test(arguments: Misbehaviour.all)
    func aMisbehavingPeerIsCutOffWithATypedErrorAndOtherSessionsCarryOn(_ fault: Misbehaviour) async throws {
        let bad = try await EndToEndRig.start()
        let good = try await EndToEndRig.start()
        let frameTimeout = Duration.seconds(1)
        let badContext = CastContext(
            options: Self.options(bad) {
                $0.frameTimeout = frameTimeout
                // Only the frame timeout may catch the trickle, not the heartbeat.
                $0.heartbeatInterval = .seconds(1)
                $0.heartbeatTimeout = .seconds(20)
            }
        )
        let goodContext = CastContext(options: Self.options(good))
        let badEvents = FaultEventLog()
        let goodEvents = FaultEventLog()
        badContext.sessionManager.add(badEvents)
        goodContext.sessionManager.add(goodEvents)
        let badSession = try await Self.playing(bad, badContext)
        let goodSession = try await Self.playing(good, goodContext)
        let memoryBefore = try #require(Self.residentBytes())

        let injected = ContinuousClock.now
        fault.inject(bad.device)
        #expect(await bad.eventually(timeout: Self.cap) { badEvents.names.contains("didSuspend") })
        let cutOff = try #require(badEvents.time(of: "didSuspend"))
        print("fault injection: \(fault.name) → connection closed after \(injected.duration(to: cutOff))")
        let error = try #require(badSession.lastConnectionLossError)
        #expect(error.code == fault.code, "\(error)")
        if let connectionCode = fault.connectionCode {
            #expect((error.underlying as? CastConnectionError)?.code == connectionCode, "\(error)")
        }
        #expect(error.reason.contains("127.0.0.1:\(bad.ports.cast)"))

        // The fault was one-shot: the session resumes on a fresh connection.
        #expect(await bad.eventually(timeout: Self.cap) { badEvents.names.contains("didResume") })
        #expect(badSession.connectionState == .connected)
        #expect(bad.deviceMedia?.playerState == .playing)

        // Memory stayed bounded: nothing near the 2 GiB an oversize header announces.
        let memoryAfter = try #require(Self.residentBytes())
        #expect(memoryAfter - memoryBefore < 256 << 20, "resident memory grew by \(memoryAfter - memoryBefore) bytes")

        // The session on the other device never noticed.
        await good.drain()
        #expect(goodEvents.names == ["willStart", "didStart"])
        #expect(goodSession.connectionState == .connected)
        #expect(goodSession.lastConnectionLossError == nil)
        try await goodSession.remoteMediaClient.pause().result
        #expect(good.deviceMedia?.playerState == .paused)

        await badContext.sessionManager.endSession(stopCasting: true)
        await goodContext.sessionManager.endSession(stopCasting: true)
        await bad.device.stop()
        await good.device.stop()
    }

    /// The `requestId` of a logged frame, when it has a non-zero one.
    static func requestID(_ record: FrameLogRecord) -> Int? {
        guard let id = (try? JSONValue(parsing: record.payload))?["requestId"]?.intValue, id > 0 else { return nil }
        return id
    }

    /// The process's resident set size, from `/proc/self/statm`.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Records session and media listener events with the time each arrived, on the context's
/// callback queue; `onEvent` runs there too, right after recording.
final class FaultEventLog: SessionManagerListener, RemoteMediaClientListener {
    private struct Entry {
        var name: String
        var time: ContinuousClock.Instant
        var error: CastError?
    }

    private let entries = Mutex<[Entry]>([])
    private let onEvent: @Sendable (String) -> Void

    init(onEvent: @escaping @Sendable (String) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    var names: [String] { entries.withLock { $0.map(\.name) } }

    /// The errors of the events that carry one (`nil` for `didEnd` without an error).
    var errors: [CastError?] {
        entries.withLock { entries in
            entries.filter { ["didFailToStart", "didEnd", "didFailToResume"].contains($0.name) }.map(\.error)
        }
    }

    /// When the first event called `name` arrived.
    func time(of name: String) -> ContinuousClock.Instant? {
        entries.withLock { $0.first { $0.name == name }?.time }
    }

    private func record(_ name: String, _ error: CastError? = nil) {
        entries.withLock { $0.append(Entry(name: name, time: .now, error: error)) }
        onEvent(name)
    }

    func sessionManager(_ manager: SessionManager, willStart session: CastSession) { record("willStart") }
    func sessionManager(_ manager: SessionManager, didStart session: CastSession) { record("didStart") }
    func sessionManager(_ manager: SessionManager, didFailToStart session: CastSession, withError error: CastError) {
        record("didFailToStart", error)
    }
    func sessionManager(_ manager: SessionManager, willEnd session: CastSession) { record("willEnd") }
    func sessionManager(_ manager: SessionManager, didEnd session: CastSession, withError error: CastError?) {
        record("didEnd", error)
    }
    func sessionManager(_ manager: SessionManager, didSuspend session: CastSession, with reason: SessionSuspendReason) {
        record("didSuspend")
    }
    func sessionManager(_ manager: SessionManager, willResume session: CastSession) { record("willResume") }
    func sessionManager(_ manager: SessionManager, didResume session: CastSession) { record("didResume") }
    func sessionManager(_ manager: SessionManager, didFailToResume session: CastSession, withError error: CastError) {
        record("didFailToResume", error)
    }
    func remoteMediaClient(_ client: RemoteMediaClient, didStartMediaSessionWithID mediaSessionID: Int) {
        record("mediaSessionStarted \(mediaSessionID)")
    }
}
