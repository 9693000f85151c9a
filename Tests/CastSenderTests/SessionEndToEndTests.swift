import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Dispatch
import Foundation
import Testing

@testable import CastSender

/// Collects session events in order.
final class EventRecorder: SessionManagerListener, Sendable {
    // Written on the context's callback queue, read by tests that await an event.
    private let recorded = Locked<(names: [String], errors: [CastError?])>(([], []))

    /// The events received so far, oldest first.
    var names: [String] { recorded.withLock { $0.names } }
    /// The errors of the events that carry one, oldest first.
    var errors: [CastError?] { recorded.withLock { $0.errors } }

    /// Notified after each event.
    let changes = ChangeSignal()

    /// Waits until `name` has been received `count` times; a hang guard fails the wait.
    func wait(for name: String, count: Int = 1) async throws {
        try await changes.wait(until: "\(name) × \(count)") { [self] in names.count(where: { $0 == name }) >= count }
    }

    private func record(_ name: String) {
        recorded.withLock { $0.names.append(name) }
        changes.notify()
    }
    private func record(_ name: String, _ error: CastError?) {
        recorded.withLock { recorded in
            recorded.names.append(name)
            recorded.errors.append(error)
        }
        changes.notify()
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
}

struct Harness {
    let device = FakeDevice()
    let clock = ManualCastClock()
    let queue = DispatchQueue(label: "test-callbacks")
    let deviceInfo = CastDevice(id: UUID(), friendlyName: "Fake", addresses: [IPAddress("127.0.0.1")!], port: 8009)

    func options(store: URL? = nil, configure: (inout CastOptions) -> Void = { _ in }) -> CastOptions {
        var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
        options.callbackQueue = queue
        // The scripted device cannot answer device authentication.
        options.acceptUnauthenticatedDevices()
        options.sessionStoreURL = store
        options.reconnectBackoff = ReconnectBackoff(initialDelay: .seconds(1), jitter: 0, maximumAttempts: 3)
        configure(&options)
        return options
    }

    func context(_ options: CastOptions) -> CastContext {
        CastContext(options: options, connector: device, clock: clock, browser: nil, random: { 0.5 })
    }

    /// Waits until the callback queue has run everything queued so far.
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { continuation.resume() }
        }
    }

    /// Waits until a timer of the clock falls due within `delay` (the SDK's next step, such as
    /// a reconnection attempt, is scheduled); a hang guard fails the wait.
    func timerScheduled(within delay: Duration) async throws {
        // The clock's wait ignores cancellation: on the deadline, a timer due at once ends it.
        try await withDeadline(
            TestTiming.hangGuard,
            "a timer due within \(delay)",
            onTimeout: { [clock] in clock.schedule(after: .zero) {} },
            body: { [clock] in await clock.waitForScheduledTimers(count: 1, dueWithin: delay) }
        )
    }

    /// Waits until `condition` holds, checking it after each change of the device (a message
    /// handled or delivered to the SDK, a connection opened or closed) once the callback queue
    /// has run what that change queued; a hang guard fails the wait.
    ///
    /// Only for conditions that the device's messages make true: a change the SDK makes later
    /// in a task of its own would wake no one (await its event or its stream instead).
    func until(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        try await withDeadline(TestTiming.hangGuard, what) { [self] in
            while true {
                let generation = device.changes.generation
                await drain()
                if condition() { return }
                await device.changes.waitForChange(after: generation)
            }
        }
    }
}

@Suite struct SessionEndToEndTests {
    @Test func codelabFlow() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        #expect(context.sessionManager.hasConnectedSession)
        #expect(context.castState == .connected)
        #expect(session.sessionID == "S-1")
        #expect(harness.device.received(type: "LAUNCH", namespace: .receiver).count == 1)
        #expect(harness.device.received(type: "GET_STATUS", namespace: .media).count == 1)

        let media = MediaInformation(
            contentID: "https://example.invalid/big.mp4",
            streamType: .buffered,
            contentType: "video/mp4",
            duration: 600
        )
        let item = QueueItem(media: media, autoplay: true, preloadTime: 20)
        let queue = QueueData(
            queueType: nil,
            repeatMode: session.remoteMediaClient.mediaStatus?.repeatMode ?? .off,
            items: [item]
        )
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: media, queueData: queue)).result
        #expect(client.mediaStatus?.playerState == .playing)
        #expect(client.mediaStatus?.items?.count == 1)

        harness.clock.advance(by: .seconds(3))
        #expect(client.approximateStreamPosition == 3)

        try await client.queueInsertItem(
            QueueItem(media: media, autoplay: true, preloadTime: 20),
            beforeItemID: MediaQueueItemID.invalid
        ).result
        #expect(client.mediaStatus?.items?.count == 2)
        let insert = try #require(harness.device.received(type: "QUEUE_INSERT", namespace: .media).first)
        #expect(!insert.contains("insertBefore"))

        try await client.pause().result
        #expect(client.mediaStatus?.playerState == .paused)
        await context.sessionManager.endSession()
        #expect(!context.sessionManager.hasConnectedSession)
        #expect(client.lastKnownPlayerState == .paused)
        #expect(client.lastKnownStreamPosition == 0)
        await harness.drain()
        #expect(recorder.names == ["willStart", "didStart", "willEnd", "didEnd"])
        #expect(recorder.errors == [nil])
        #expect(harness.device.app != nil, "leaving must not stop the receiver app")
    }

    @Test func commandsReachTheDevice() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let client = session.remoteMediaClient
        let pauseWithoutMedia = client.pause()
        #expect(pauseWithoutMedia.error?.code == .noMediaSession)
        try await client.load(LoadRequestData(media: MediaInformation(contentID: "x", duration: 100), autoplay: false))
            .result
        #expect(client.mediaStatus?.playerState == .paused)
        try await client.play().result
        #expect(client.mediaStatus?.playerState == .playing)
        try await client.seek(MediaSeekOptions(interval: 42, resumeState: .playbackPause)).result
        #expect(client.mediaStatus?.currentTime == 42)
        #expect(client.mediaStatus?.playerState == .paused)
        try await client.seek(MediaSeekOptions(interval: 8, relative: true)).result
        #expect(client.mediaStatus?.currentTime == 50)
        try await client.setPlaybackRate(2).result
        #expect(client.mediaStatus?.playbackRate == 2)
        try await client.setStreamVolume(0.25).result
        #expect(client.mediaStatus?.volume?.level == 0.25)
        try await client.setStreamMuted(true).result
        #expect(client.mediaStatus?.volume?.muted == true)
        try await client.setActiveTrackIDs([1]).result
        #expect(client.mediaStatus?.activeTrackIDs == [1])
        try await client.queueSetRepeatMode(.all).result
        #expect(client.mediaStatus?.repeatMode == .all)
        try await client.requestStatus().result
        #expect(client.setPlaybackRate(-1).error?.code == .invalidRequest)
        try await client.stop().result
        #expect(client.mediaStatus?.playerState == .idle)
        try await session.setDeviceVolume(0.8).result
        #expect(session.currentDeviceVolume == 0.8)
        try await session.setDeviceMuted(true).result
        #expect(session.currentDeviceMuted)
        await context.sessionManager.endSession(stopCasting: true)
        #expect(harness.device.app == nil)
    }

    @Test func queueFetchesIDsAndItems() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let client = session.remoteMediaClient
        let items = (0..<3).map { QueueItem(media: MediaInformation(contentID: "m\($0)")) }
        try await client.queueLoad(items).result
        try await client.queueFetchItemIDs().result
        #expect(client.mediaQueue.itemCount == 3)
        let snapshots = client.mediaQueue.observeQueue()
        #expect(client.mediaQueue.item(at: 1) == nil)
        // The item arrives in the answer to the fetch that asking for it started.
        #expect(await firstEvent(in: snapshots, timeout: TestTiming.hangGuard) { $0.item(at: 1) != nil } != nil)
        #expect(client.mediaQueue.item(at: 1, fetchIfNeeded: false)?.media?.contentID == "m1")
        try await client.queueNextItem().result
        #expect(client.mediaStatus?.currentItemID == client.mediaQueue.itemID(at: 1))
        #expect(client.queueLoad([]).error?.code == .invalidRequest)
    }

    @Test func requestsTimeOutWhenTheDeviceStalls() async throws {
        let harness = Harness()
        let context = harness.context(harness.options { $0.requestTimeout = .seconds(4) })
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(LoadRequestData(media: MediaInformation(contentID: "x"))).result
        harness.device.set(stalled: true, answersPings: false)
        let request = session.remoteMediaClient.pause()
        #expect(request.inProgress)
        try await harness.device.waitUntil("the PAUSE at the device") {
            harness.device.received(type: "PAUSE", namespace: .media).count == 1
        }
        harness.clock.advance(by: .milliseconds(3_999))
        #expect(request.inProgress)
        harness.clock.advance(by: .milliseconds(1))
        let outcome = await request.waitForOutcome()
        #expect(outcome == .failed(CastError(.timeout, "")))
        #expect(request.error?.code == .timeout)
        await context.sessionManager.endSession()
    }

    @Test func pendingRequestsFailWhenTheConnectionDrops() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(LoadRequestData(media: MediaInformation(contentID: "x"))).result
        harness.device.set(stalled: true)
        let request = session.remoteMediaClient.play()
        try await harness.device.waitUntil("the PLAY at the device") {
            harness.device.received(type: "PLAY", namespace: .media).count == 1
        }
        #expect(request.inProgress)
        harness.device.dropConnections()
        let outcome = await request.waitForOutcome()
        #expect(outcome == .failed(CastError(.disconnected, "")))
        await context.sessionManager.endSession()
    }

    @Test func missedPongsSuspendThenResumeOnTheSameReceiverSession() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(
            LoadRequestData(media: MediaInformation(contentID: "x", duration: 100))
        ).result
        harness.device.set(answersPings: false)
        harness.clock.advance(by: .seconds(5))
        // The PING of second 5 reaches the device, which does not answer it.
        try await harness.device.waitUntil("the unanswered PING") {
            harness.device.received.contains { $0.namespace == .heartbeat && $0.payloadUTF8?.contains("PING") == true }
        }
        #expect(!session.isSuspended)
        harness.clock.advance(by: .seconds(5))
        try await recorder.wait(for: "didSuspend")
        #expect(session.isSuspended)
        harness.device.set(answersPings: true)
        // The first reconnection attempt waits the backoff's first delay, a second.
        try await harness.timerScheduled(within: .seconds(1))
        harness.clock.advance(by: .seconds(1))
        try await recorder.wait(for: "didResume")
        #expect(recorder.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        #expect(harness.device.received(type: "LAUNCH", namespace: .receiver).count == 1)
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        try await session.remoteMediaClient.pause().result
        await context.sessionManager.endSession()
    }

    @Test func droppedConnectionResumesAfterRetries() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        harness.device.set(refusesConnections: true)
        harness.device.dropConnections()
        try await recorder.wait(for: "didSuspend")
        #expect(session.isSuspended)
        // The first attempt comes a second later, and is refused.
        try await harness.timerScheduled(within: .seconds(1))
        #expect(harness.device.connectCount == 1)
        harness.clock.advance(by: .seconds(1))
        try await harness.device.waitUntil("the first attempt") { harness.device.connectCount == 2 }
        #expect(session.isSuspended)
        // The second, two seconds after the first, succeeds.
        harness.device.set(refusesConnections: false)
        try await harness.timerScheduled(within: .seconds(2))
        harness.clock.advance(by: .seconds(2))
        try await recorder.wait(for: "didResume")
        #expect(session.connectionState == .connected)
        #expect(harness.device.connectCount == 3)
        await harness.drain()
        #expect(recorder.names == ["willStart", "didStart", "didSuspend", "willResume", "didResume"])
        await context.sessionManager.endSession()
    }

    @Test func resumeFailsWhenEveryAttemptFails() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        _ = try await context.sessionManager.startSession(with: harness.deviceInfo)
        harness.device.set(refusesConnections: true)
        harness.device.dropConnections()
        try await recorder.wait(for: "didSuspend")
        // Each of the three attempts waits its backoff (1, 2, then 4 s) and is refused.
        for attempt in 1...3 {
            try await harness.timerScheduled(within: .seconds(10))
            harness.clock.advance(by: .seconds(10))
            try await harness.device.waitUntil("attempt \(attempt)") { harness.device.connectCount == 1 + attempt }
        }
        try await recorder.wait(for: "didEnd")
        await harness.drain()
        #expect(recorder.names.last == "didEnd")
        #expect(harness.device.connectCount == 4, "one start and three resume attempts")
        #expect(recorder.names.suffix(2) == ["didFailToResume", "didEnd"])
        #expect(context.sessionManager.currentSession == nil)
    }

    @Test func appStoppedByAnotherSenderEndsTheSession() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        _ = try await context.sessionManager.startSession(with: harness.deviceInfo)
        harness.device.stopAppFromElsewhere()
        try await recorder.wait(for: "didEnd")
        #expect(recorder.names == ["willStart", "didStart", "willEnd", "didEnd"])
        #expect(recorder.errors.last??.code == .applicationNotRunning)
    }

    @Test func persistedSessionIsRejoinedWithoutRelaunch() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cast-session-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: store) }
        let harness = Harness()
        let first = harness.context(harness.options(store: store))
        let session = try await first.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(LoadRequestData(media: MediaInformation(contentID: "x"))).result
        #expect(FileManager.default.fileExists(atPath: store.path))

        let second = harness.context(harness.options(store: store) { $0.resumesSavedSession = false })
        let recorder = EventRecorder()
        second.sessionManager.add(recorder)
        let resumed = try await second.sessionManager.resumeSavedSession()
        #expect(resumed.sessionID == session.sessionID)
        #expect(harness.device.received(type: "LAUNCH", namespace: .receiver).count == 1)
        #expect(
            resumed.remoteMediaClient.mediaStatus?.mediaSessionID
                == session.remoteMediaClient.mediaStatus?.mediaSessionID
        )
        try await resumed.remoteMediaClient.pause().result
        await harness.drain()
        #expect(recorder.names == ["willResume", "didResume"])
        await second.sessionManager.endSession()
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func aSecondSenderJoinsAndSeesBroadcasts() async throws {
        let harness = Harness()
        let first = harness.context(harness.options())
        let second = harness.context(harness.options())
        let a = try await first.sessionManager.startSession(with: harness.deviceInfo)
        let b = try await second.sessionManager.startSession(with: harness.deviceInfo)
        #expect(harness.device.received(type: "LAUNCH", namespace: .receiver).count == 1)
        #expect(a.sessionID == b.sessionID)
        try await a.remoteMediaClient.load(LoadRequestData(media: MediaInformation(contentID: "x"))).result
        // The device's broadcasts tell each sender of the other's commands.
        let seenByB = await firstEvent(in: b.remoteMediaClient.observeMediaStatus(), timeout: TestTiming.hangGuard) {
            $0?.playerState == .playing
        }
        #expect(seenByB != nil)
        let statusesOfA = a.remoteMediaClient.observeMediaStatus()
        try await b.remoteMediaClient.pause().result
        #expect(await firstEvent(in: statusesOfA, timeout: TestTiming.hangGuard) { $0?.playerState == .paused } != nil)
        await first.sessionManager.endSession()
        await second.sessionManager.endSession()
    }

    @Test func launchAndLoadCredentialsReachTheReceiver() async throws {
        let harness = Harness()
        let context = harness.context(
            harness.options { $0.launchOptions = LaunchOptions(languageCode: "en-US", androidReceiverCompatible: true) }
        )
        context.setLaunchCredentials(CredentialsData(credentials: "{\"userId\":\"id123\"}", credentialsType: "ios"))
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let launch = try #require(harness.device.received(type: "LAUNCH", namespace: .receiver).first)
        let parsed = try LaunchRequest(jsonString: launch)
        #expect(parsed.supportedAppTypes == [.web, .androidTV])
        #expect(parsed.language == "en-US")
        #expect(parsed.appParams?.launchCheckerParams?.credentialsData?.credentials == "{\"userId\":\"id123\"}")
        try await session.remoteMediaClient.load(
            LoadRequestData(
                media: MediaInformation(contentID: "x"),
                credentials: "{\"userId\":\"id123\"}",
                credentialsType: "ios"
            )
        ).result
        let load = try LoadRequest(
            jsonString: try #require(harness.device.received(type: "LOAD", namespace: .media).first)
        )
        #expect(load.data.credentials == "{\"userId\":\"id123\"}")
        await context.sessionManager.endSession()
    }

    @Test func failedStartReportsTheError() async throws {
        let harness = Harness()
        harness.device.set(refusesConnections: true)
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        await #expect(throws: CastError(.network, "")) {
            try await context.sessionManager.startSession(with: harness.deviceInfo)
        }
        await harness.drain()
        #expect(recorder.names == ["willStart", "didFailToStart"])
        #expect(context.sessionManager.currentSession == nil)
    }
}

/// Each status the SDK tracks as a stream that starts with the value now.
@Suite struct ObservedStatusTests {
    /// The first value of `stream`, or `nil` if it ends first.
    private func first<Value>(of stream: AsyncStream<Value>) async -> Value? {
        for await value in stream { return value }
        return nil
    }

    @Test func aStreamMadeAfterLoadReturnedStartsWithPlaying() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let client = session.remoteMediaClient
        try await client.load(LoadRequestData(media: MediaInformation(contentID: "x", duration: 100))).result
        // The PLAYING status arrived before this line; `events()` would never tell it again.
        let statuses = client.observeMediaStatus()
        var seen: [PlayerState?] = []
        for await status in statuses {
            seen.append(status?.playerState)
            if status?.playerState == .playing { break }
        }
        #expect(seen == [.playing])

        let later = client.observeMediaStatus()
        try await client.pause().result
        var states: [PlayerState?] = []
        for await status in later {
            states.append(status?.playerState)
            if status?.playerState == .paused { break }
        }
        #expect(states.first == .playing && states.last == .paused)
        #expect(await first(of: context.observeCastState()) == .connected)
        let current = await first(of: context.sessionManager.observeCurrentSession())
        #expect(current.flatMap { $0 } === session)
        #expect(await first(of: session.observeConnectionState()) == .connected)
    }

    @Test func sessionStreamsFollowTheSessionToItsEnd() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let sessions = context.sessionManager.observeCurrentSession()
        let castStates = context.observeCastState()
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let connection = session.observeConnectionState()
        await context.sessionManager.endSession()

        var current: [Bool] = []
        for await value in sessions {
            current.append(value != nil)
            if current.count == 3 { break }
        }
        #expect(current == [false, true, false])

        var states: [CastSession.ConnectionState] = []
        for await state in connection {
            states.append(state)
            if state == .disconnected { break }
        }
        #expect(states.first == .connected && states.last == .disconnected)

        // Connecting may pass before the context hears of it; connected and the end may not.
        var cast: [CastState] = []
        for await state in castStates {
            cast.append(state)
            if cast.contains(.connected), state == .noDevicesAvailable { break }
        }
        #expect(cast.first == .noDevicesAvailable)
        #expect(cast.last == .noDevicesAvailable)
        #expect(cast.filter { $0 == .connected }.count == 1)
    }

    @Test func deviceVolumeStreamStartsWithTheReportedVolume() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let reported = session.deviceVolume
        let volumes = session.observeDeviceVolume()
        try await session.setDeviceVolume(0.3).result
        var seen: [DeviceVolume?] = []
        for await volume in volumes {
            seen.append(volume)
            if volume?.level == 0.3 { break }
        }
        #expect(seen.first == reported)
        #expect(seen.last??.level == 0.3)
    }

    @Test func queueStreamStartsWithTheQueueAndFollowsFetches() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let client = session.remoteMediaClient
        let items = (0..<3).map { QueueItem(media: MediaInformation(contentID: "m\($0)")) }
        try await client.queueLoad(items).result
        try await client.queueFetchItemIDs().result
        let queue = client.mediaQueue.observeQueue()
        _ = client.mediaQueue.item(at: 2)
        var snapshots: [MediaQueue.Snapshot] = []
        for await snapshot in queue {
            snapshots.append(snapshot)
            if snapshot.item(at: 2) != nil { break }
        }
        #expect(snapshots.first?.itemIDs.count == 3)
        #expect(snapshots.last?.item(at: 2)?.media?.contentID == "m2")
    }
}
