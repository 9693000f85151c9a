import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastSender

/// Every RECEIVER_STATUS and MEDIA_STATUS captured from real hardware, sent to a session as a
/// device would, reaches the session's and the media client's state whole.
@Suite(.requires(.realDevicePayloads)) struct RealDevicePayloadSessionTests {
    /// A session on a fake device that has answered the media `GET_STATUS` of the session
    /// start, so that later statuses arrive after that reply.
    private static func startedSession(
        _ harness: Harness,
        configure: (inout CastOptions) -> Void = { _ in }
    ) async throws -> (CastContext, CastSession, FakeDevice.App) {
        let context = harness.context(harness.options(configure: configure))
        let session = try await context.sessionManager.startSession(with: harness.deviceInfo)
        try await harness.until("the media GET_STATUS at the device") {
            !harness.device.received(type: "GET_STATUS", namespace: .media).isEmpty
        }
        return (context, session, try #require(harness.device.app))
    }

    /// The payload with its first application standing for the session's app: the ids of
    /// this session, so the session recognises it, and everything else as captured.
    private static func adopting(_ payload: String, app: FakeDevice.App) throws -> (text: String, hasApps: Bool) {
        var value = try JSONValue(parsing: payload)
        guard var status = value["status"], var apps = status["applications"]?.arrayValue, var first = apps.first
        else { return (payload, false) }
        first["sessionId"] = .string(app.sessionID)
        if first["transportId"] != nil { first["transportId"] = .string(app.transportID) }
        apps[0] = first
        status["applications"] = .array(apps)
        value["status"] = status
        return (value.description, true)
    }

    @Test func everyReceiverStatusReachesTheSession() async throws {
        let records = try RealDevicePayloads.records(kind: "RECEIVER_STATUS")
        for record in records {
            let harness = Harness()
            let (context, session, app) = try await Self.startedSession(harness)
            let (text, hasApps) = try Self.adopting(record.payload, app: app)
            let expected = try ReceiverStatusMessage(jsonString: text).status
            harness.device.broadcast(text: text, from: "receiver-0", namespace: .receiver)
            let volume = try #require(expected.volume, "\(record)")
            try await harness.until("\(record): volume \(volume)") {
                session.currentDeviceVolume == volume.level && session.currentDeviceMuted == volume.muted
            }
            #expect(session.deviceVolumeIncrement == volume.stepInterval ?? 0.05, "\(record)")
            #expect(session.isFixedVolume == (volume.controlType == .fixed), "\(record)")
            if hasApps {
                // The running app, every member kept (`senderConnected`, `appType`, …).
                let ownApp = try #require(expected.applications?.first)
                #expect(session.applicationMetadata == ownApp, "\(record)")
                #expect(session.deviceStatusText == ownApp.statusText, "\(record)")
                #expect(session.connectionState == .connected, "\(record)")
            } else {
                // An idle device (standby TV, idle speaker): the session's app is gone.
                try await harness.until("\(record)") { !context.sessionManager.hasConnectedSession }
            }
            await context.sessionManager.endSession()
        }
    }

    @Test func everyMediaStatusReachesTheMediaClient() async throws {
        let records = try RealDevicePayloads.records(kind: "MEDIA_STATUS")
        for record in records {
            let harness = Harness()
            let (context, session, app) = try await Self.startedSession(harness)
            let client = session.remoteMediaClient
            let expected = try MediaStatusMessage(jsonString: record.payload).status.first
            if expected == nil {
                // No media session: shown once one existed.
                harness.device.broadcast(
                    text: #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":99,"playerState":"PLAYING"}]}"#,
                    from: app.transportID,
                    namespace: .media
                )
                try await harness.until("\(record)") { client.mediaStatus?.mediaSessionID == 99 }
            }
            harness.device.broadcast(text: record.payload, from: app.transportID, namespace: .media)
            if var expected {
                if expected.isLoading {
                    expected.media = expected.effectiveMedia
                    expected.playerState = .loading
                }
                try await harness.until("\(record)") { [expected] in client.mediaStatus == expected }
                #expect(client.lastKnownPlayerState == expected.playerState, "\(record)")
            } else {
                try await harness.until("\(record)") { client.mediaStatus == nil }
            }
            await context.sessionManager.endSession()
        }
    }

    @Test func aLoadInProgressShowsAsLoadingThenPlaying() async throws {
        let record = try #require(
            try RealDevicePayloads.records(kind: "MEDIA_STATUS").first {
                $0.payload.contains("extendedStatus") && $0.payload.contains("tts_proxy")
            }
        )
        let harness = Harness()
        let (context, session, app) = try await Self.startedSession(harness)
        let client = session.remoteMediaClient
        harness.device.broadcast(text: record.payload, from: app.transportID, namespace: .media)
        try await harness.until("client.mediaStatus?.playerState == .loading") {
            client.mediaStatus?.playerState == .loading
        }
        #expect(client.mediaStatus?.media?.contentID?.contains("tts_proxy") == true)
        #expect(client.mediaStatus?.extendedStatus?.playerState == .loading)
        #expect(client.lastKnownPlayerState == .loading)
        let id = try #require(client.mediaStatus?.mediaSessionID)
        // The load finishes: the next status of the same media session says PLAYING and
        // leaves out the media, which stays known.
        harness.device.broadcast(
            text:
                #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":\#(id),"playerState":"PLAYING","currentTime":0.5}]}"#,
            from: app.transportID,
            namespace: .media
        )
        try await harness.until("client.mediaStatus?.playerState == .playing") {
            client.mediaStatus?.playerState == .playing
        }
        #expect(client.mediaStatus?.media?.contentID?.contains("tts_proxy") == true)
        #expect(client.mediaStatus?.extendedStatus == nil)
        await context.sessionManager.endSession()
    }

    @Test func aFixedVolumeDeviceRefusesVolumeChangesWithoutSendingThem() async throws {
        let harness = Harness()
        harness.device.state.withLock {
            $0.volume = DeviceVolume(controlType: .fixed, level: 1, muted: false, stepInterval: Double(Float(0.04)))
        }
        let (context, session, _) = try await Self.startedSession(harness)
        #expect(session.isFixedVolume)
        #expect(session.deviceVolumeIncrement == Double(Float(0.04)))
        await #expect(throws: CastError(.notAllowed, "")) { try await session.setDeviceVolume(0.3).result }
        await #expect(throws: CastError(.notAllowed, "")) { try await session.setDeviceMuted(true).result }
        #expect(harness.device.received(type: "SET_VOLUME", namespace: .receiver).isEmpty)
        // A device whose volume becomes adjustable (another input) takes requests again.
        harness.device.state.withLock { $0.volume.controlType = .master }
        harness.device.broadcast(
            text: try harness.device.receiverStatus().jsonString(),
            from: "receiver-0",
            namespace: .receiver
        )
        try await harness.until("!session.isFixedVolume") { !session.isFixedVolume }
        try await session.setDeviceVolume(0.3).result
        #expect(harness.device.received(type: "SET_VOLUME", namespace: .receiver).count == 1)
        await context.sessionManager.endSession()
    }
}
