import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastSender

final class MediaEventRecorder: RemoteMediaClientListener, Sendable {
    // Written on the context's callback queue, read by the test.
    private let recorded = Locked<[String]>([])

    /// The events received so far, oldest first.
    var names: [String] { recorded.withLock { $0 } }

    private func record(_ name: String) { recorded.withLock { $0.append(name) } }

    func remoteMediaClient(_ client: RemoteMediaClient, didStartMediaSessionWithID mediaSessionID: Int) {
        record("didStartMediaSession(\(mediaSessionID))")
    }
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaStatus: MediaStatus?) {
        record("didUpdateMediaStatus")
    }
    func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaMetadata: MediaMetadata?) {
        record("didUpdateMediaMetadata")
    }
    func remoteMediaClientDidUpdateQueue(_ client: RemoteMediaClient) { record("didUpdateQueue") }
}

@Suite struct ContextAndDiscoveryTests {
    @Test func castStateFollowsDevicesAndSessions() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        #expect(context.castState == .noDevicesAvailable)
        let states = context.castStateChanges()
        let device = try await context.discoveryManager.addDevice(host: "127.0.0.1", port: 8009, friendlyName: "Fake")
        #expect(context.discoveryManager.devices.map(\.id) == [device.id])
        #expect(context.castState == .notConnected)
        _ = try await context.sessionManager.startSession(with: device)
        #expect(
            await firstEvent(in: context.observeCastState(), timeout: TestTiming.hangGuard) { $0 == .connected } != nil
        )
        await context.sessionManager.endSession()
        #expect(
            await firstEvent(in: context.observeCastState(), timeout: TestTiming.hangGuard) { $0 == .notConnected }
                != nil
        )
        var seen: [CastState] = []
        for await state in states {
            seen.append(state)
            if seen.count == 4 { break }
        }
        #expect(seen == [.notConnected, .connecting, .connected, .notConnected])
        context.discoveryManager.removeDevice(device)
        #expect(
            await firstEvent(in: context.observeCastState(), timeout: TestTiming.hangGuard) {
                $0 == .noDevicesAvailable
            } != nil
        )
    }

    @Test func addingAHostThatIsNotACastDeviceFails() async throws {
        let harness = Harness()
        harness.device.set(stalled: true)
        let context = harness.context(harness.options { $0.requestTimeout = .seconds(2) })
        let added = Task { try await context.discoveryManager.addDevice(host: "127.0.0.1") }
        try await harness.until("the probe's requests at the device") { harness.device.received.count >= 2 }
        harness.clock.advance(by: .seconds(2))
        await #expect(throws: CastError(.timeout, "")) { try await added.value }
        #expect(context.discoveryManager.devices.isEmpty)
    }

    @Test func mediaListenerEventsInOrder() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let recorder = MediaEventRecorder()
        session.remoteMediaClient.add(recorder)
        let metadata = MediaMetadata(metadataType: .movie)
        try await session.remoteMediaClient.load(
            LoadRequestData(media: MediaInformation(contentID: "x", metadata: metadata))
        ).result
        try await session.remoteMediaClient.pause().result
        await harness.drain()
        #expect(
            recorder.names == [
                "didStartMediaSession(1)", "didUpdateMediaStatus", "didUpdateMediaMetadata", "didUpdateQueue",
                "didUpdateMediaStatus",
            ]
        )
        await context.sessionManager.endSession()
    }

    @Test func malformedMessagesFromTheDeviceAreIgnored() async throws {
        let harness = Harness()
        let context = harness.context(harness.options())
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        let link = try #require(harness.device.state.withLock { $0.links.first })
        for garbage in ["", "{", "[1,2]", "{\"type\":5}", "{\"type\":\"MEDIA_STATUS\",\"status\":\"nope\"}"] {
            link.deliver(CastMessage(sourceID: "T-1", destinationID: "*", namespace: .media, text: garbage))
            link.deliver(CastMessage(sourceID: "receiver-0", destinationID: "*", namespace: .receiver, text: garbage))
        }
        link.deliver(CastMessage(sourceID: "receiver-0", destinationID: "*", namespace: .receiver, binary: [0xFF]))
        try await session.remoteMediaClient.requestStatus().result
        #expect(session.connectionState == .connected)
        await context.sessionManager.endSession()
    }
}
