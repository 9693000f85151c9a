import CastNet
import CastSenderTestSupport
import CastSync
import CastTime
import Dispatch
import Foundation
import Testing

@testable import CastSender

/// Collects session events in order.
final class EventRecorder: SessionManagerListener, Sendable {
    // Written on the context's callback queue, read by tests that poll for an event.
    private let recorded = Locked<(names: [String], errors: [CastError?])>(([], []))

    /// The events received so far, oldest first.
    var names: [String] { recorded.withLock { $0.names } }
    /// The errors of the events that carry one, oldest first.
    var errors: [CastError?] { recorded.withLock { $0.errors } }

    private func record(_ name: String) { recorded.withLock { $0.names.append(name) } }
    private func record(_ name: String, _ error: CastError?) {
        recorded.withLock { recorded in
            recorded.names.append(name)
            recorded.errors.append(error)
        }
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

    /// Waits (bounded) for `condition`, letting queued work run between checks.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            await drain()
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
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
        #expect(client.mediaQueue.item(at: 1) == nil)
        #expect(await harness.eventually { client.mediaQueue.item(at: 1, fetchIfNeeded: false) != nil })
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
        #expect(await harness.eventually { harness.device.received(type: "PAUSE", namespace: .media).count == 1 })
        harness.clock.advance(by: .seconds(4))
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
        #expect(await harness.eventually { harness.device.received(type: "PLAY", namespace: .media).count == 1 })
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
        harness.clock.advance(by: .seconds(5))
        #expect(await harness.eventually { recorder.names.contains("didSuspend") })
        #expect(session.isSuspended)
        harness.device.set(answersPings: true)
        harness.clock.advance(by: .seconds(1))
        #expect(await harness.eventually { recorder.names.contains("didResume") })
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
        #expect(await harness.eventually { session.isSuspended })
        harness.clock.advance(by: .seconds(1))
        #expect(await harness.eventually { harness.device.connectCount == 2 && session.isSuspended })
        harness.device.set(refusesConnections: false)
        harness.clock.advance(by: .seconds(2))
        #expect(await harness.eventually { session.connectionState == .connected })
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
        let ended = await harness.eventually {
            harness.clock.advance(by: .seconds(10))
            return recorder.names.last == "didEnd"
        }
        #expect(ended)
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
        #expect(await harness.eventually { recorder.names.last == "didEnd" })
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
        #expect(await harness.eventually { b.remoteMediaClient.mediaStatus?.playerState == .playing })
        try await b.remoteMediaClient.pause().result
        #expect(await harness.eventually { a.remoteMediaClient.mediaStatus?.playerState == .paused })
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
