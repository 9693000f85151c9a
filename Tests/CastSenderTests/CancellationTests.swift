import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSender

/// Cancelling the task that awaits an SDK call does what the call's documentation says.
@Suite struct CancellationTests {
    static let media = MediaInformation(contentID: "https://example.invalid/a.mp4", streamType: .buffered, duration: 60)

    /// A connected session with media loaded on the scripted device, and no request in flight.
    static func loadedSession(_ harness: Harness) async throws -> (CastContext, CastSession) {
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await session.remoteMediaClient.load(LoadRequestData(media: media)).result
        // The LOAD's MEDIA_STATUS changes the queue, so the client asks for its item ids
        // (QUEUE_GET_ITEM_IDS); the device reads that request on its own queue. A test that
        // stalls the device before it has answered would find that request in the tracker
        // beside its own (as a slowed-down sanitizer run did): wait until it is answered.
        try await harness.until("the QUEUE_GET_ITEM_IDS answered") { session.pendingRequestCount == 0 }
        return (context, session)
    }

    @Test func cancellingTheAwaitingTaskCancelsTheRequestAndIgnoresTheLateReply() async throws {
        let harness = Harness()
        let (_, session) = try await Self.loadedSession(harness)
        let client = session.remoteMediaClient
        harness.device.set(stalled: true)
        let request = client.pause()
        #expect(request.inProgress)
        try await harness.until("the PAUSE at the device") {
            !harness.device.received(type: "PAUSE", namespace: .media).isEmpty
        }
        #expect(session.pendingRequestCount == 1)

        let waiter = Task { () async throws in try await request.result }
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: CastError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect((error as? CastError)?.code == .cancelled) }
        #expect(request.outcome == .aborted(.cancelled))
        #expect(request.error?.code == .cancelled)
        #expect(session.pendingRequestCount == 0, "the tracker entry is removed")

        // The device catches up and answers the PAUSE: the reply settles nothing. (The frame
        // may still be on its way to the device when the request is already cancelled.)
        let isPause = { @Sendable (message: CastMessage) in message.payloadUTF8?.contains("\"PAUSE\"") == true }
        let pause = try #require(harness.device.received.last(where: isPause))
        let statuses = client.observeMediaStatus()
        harness.device.answerLate(pause)
        #expect(await firstEvent(in: statuses, timeout: TestTiming.hangGuard) { $0?.playerState == .paused } != nil)
        #expect(request.outcome == .aborted(.cancelled))
        #expect(session.pendingRequestCount == 0)
    }

    @Test func waitForOutcomeCancelsTooAndASettledRequestStaysSettled() async throws {
        let harness = Harness()
        let (_, session) = try await Self.loadedSession(harness)
        let client = session.remoteMediaClient

        harness.device.set(stalled: true)
        let request = client.play()
        let waiter = Task { await request.waitForOutcome() }
        waiter.cancel()
        #expect(await waiter.value == .aborted(.cancelled))
        #expect(session.pendingRequestCount == 0)

        harness.device.set(stalled: false)
        let settled = client.requestStatus()
        try await settled.result
        let late = Task { () async throws in try await settled.result }
        late.cancel()
        #expect((try? await late.value) != nil, "a request that already completed is not changed")
        #expect(settled.outcome == .completed)
    }

    @Test func aTaskCancelledBeforeItAwaitsCancelsAtOnce() async throws {
        let harness = Harness()
        let (_, session) = try await Self.loadedSession(harness)
        harness.device.set(stalled: true)
        let request = session.remoteMediaClient.pause()
        let waiter = Task { () -> CastRequest.Outcome in
            withUnsafeCurrentTask { $0?.cancel() }
            return await request.waitForOutcome()
        }
        #expect(await waiter.value == .aborted(.cancelled))
        #expect(session.pendingRequestCount == 0)
    }

    @Test func cancellingStartSessionEndsTheStartingSession() async throws {
        let harness = Harness()
        harness.device.set(stalled: true)
        let context = harness.context(harness.options())
        let recorder = EventRecorder()
        context.sessionManager.add(recorder)
        let start = Task { () async throws -> CastSession in
            try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        }
        // Wait until the start is under way (GET_STATUS sent and unanswered), then cancel.
        try await harness.until("the GET_STATUS at the device") {
            !harness.device.received(type: "GET_STATUS", namespace: .receiver).isEmpty
        }
        start.cancel()
        let result = await start.result
        guard case .failure(let error) = result else {
            Issue.record("the start should have been cancelled")
            return
        }
        #expect((error as? CastError)?.code == .cancelled)
        try await recorder.wait(for: "didFailToStart")
        #expect(recorder.names == ["willStart", "didFailToStart"])
        #expect(recorder.errors.last??.code == .cancelled)
        #expect(context.sessionManager.currentSession == nil)
        #expect(context.sessionManager.connectionState == .disconnected)
        #expect(harness.device.received(type: "LAUNCH", namespace: .receiver).isEmpty)
    }

    @Test func aStartCancelledBeforeItBeginsSendsNothing() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let start = Task { () async throws -> CastSession in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await context.sessionManager.startSession(with: harness.deviceInfo, host: nil, port: nil)
        }
        let result = await start.result
        if case .failure(let error) = result {
            #expect((error as? CastError)?.code == .cancelled)
        } else {
            Issue.record("the start should have been cancelled")
        }
        #expect(context.sessionManager.currentSession == nil)
        #expect(harness.device.connectCount == 0)
    }

    @Test func cancellingResumeSavedSessionGivesUpAndForgetsIt() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("cancel-resume-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: store) }
        let harness = Harness()
        let first = harness.context(harness.options(store: store))
        _ = try await first.sessionManager.startSession(with: harness.deviceInfo)
        #expect(first.sessionManager.hasSavedSession)

        harness.device.set(stalled: true)
        var options = harness.options(store: store)
        options.resumesSavedSession = false
        let second = harness.context(options)
        let resume = Task { () async throws -> CastSession in try await second.sessionManager.resumeSavedSession() }
        try await harness.until("the resume's GET_STATUS at the device") {
            harness.device.received(type: "GET_STATUS", namespace: .receiver).count >= 2
        }
        resume.cancel()
        if case .failure(let error) = await resume.result {
            #expect((error as? CastError)?.code == .cancelled)
        } else {
            Issue.record("the resume should have been cancelled")
        }
        let current = second.sessionManager.observeCurrentSession()
        #expect(await firstEvent(in: current, timeout: TestTiming.hangGuard) { $0 == nil } != nil)
        #expect(!second.sessionManager.hasSavedSession)
    }

    @Test func cancellationDoesNotInterruptEndSession() async throws {
        let harness = Harness()
        let (context, _) = try await Self.loadedSession(harness)
        let end = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await context.sessionManager.endSession(stopCasting: true)
        }
        await end.value
        #expect(context.sessionManager.currentSession == nil)
        #expect(harness.device.received(type: "STOP", namespace: .receiver).count == 1)
    }

    @Test func cancellingAddDeviceAddsNothing() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let add = Task { () async throws -> CastDevice in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        }
        if case .failure(let error) = await add.result {
            #expect((error as? CastError)?.code == .cancelled)
        } else {
            Issue.record("addDevice should have been cancelled")
        }
        #expect(context.discoveryManager.devices.isEmpty)
        #expect(harness.device.received(type: "GET_STATUS", namespace: .receiver).isEmpty)
    }

    @Test func cancellingAnAddDeviceWaitingForItsStatusClosesTheProbe() async throws {
        let harness = Harness()
        harness.device.set(stalled: true)
        let context = harness.context(harness.options())
        let add = Task { () async throws -> CastDevice in
            try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009)
        }
        try await harness.until("the probe's GET_STATUS at the device") {
            !harness.device.received(type: "GET_STATUS", namespace: .receiver).isEmpty
        }
        add.cancel()
        if case .failure(let error) = await add.result {
            #expect((error as? CastError)?.code == .cancelled)
        } else {
            Issue.record("addDevice should have been cancelled")
        }
        #expect(context.discoveryManager.devices.isEmpty)
        try await harness.until("the probe's connection to close") { harness.device.openConnectionCount == 0 }
    }
}
