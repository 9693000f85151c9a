import CastCore
import CastNet
import CastSync
import Foundation
import Testing

@testable import CastEmulator

/// A device started with a snapshot (`start(restoring:)`) runs the kept receiver app before it
/// listens. A sender resuming its session connects as soon as the port answers; had it found an
/// idle device, it would have given the session up (as castvideos' second launch once did
/// when the restore came after the listener). On sockets: the order of listening and restoring
/// is the subject.
@Suite struct VirtualDeviceRestoreOnStartTests {
    static func snapshot() -> VirtualDeviceSnapshot {
        var snapshot = VirtualDeviceSnapshot(
            appID: ReceiverAppDefinition.defaultMediaReceiver.appID,
            sessionID: "S-kept",
            transportID: "T-kept"
        )
        let item = QueueItem(
            media: MediaInformation(contentID: "https://media.invalid/kept.mp4", streamType: .buffered, duration: 600)
        )
        snapshot.items = [item]
        snapshot.currentIndex = 0
        snapshot.position = 42
        snapshot.isPlaying = false
        return snapshot
    }

    static func device(advertiser: RecordingAdvertiser, castPort: Int = 0) -> VirtualDevice {
        var configuration = VirtualDeviceConfiguration(identity: ServerTestDevices.identity)
        configuration.mediaMode = .simulate
        var options = DeviceServerOptions.forTests()
        options.castPort = castPort
        return VirtualDevice(
            configuration: configuration,
            options: options,
            advertiser: advertiser,
            certificateKey: ServerTestDevices.sharedKey
        )
    }

    @Test func theFirstSenderAndTheFirstAdvertisementFindTheRestoredApp() async throws {
        let advertiser = RecordingAdvertiser()
        let device = Self.device(advertiser: advertiser)
        let ports = try await device.start(restoring: Self.snapshot())
        defer { Task { await device.stop() } }

        // mDNS: the device's first announcement is already busy with the kept app.
        guard case .start(let first) = try #require(advertiser.all.first) else {
            Issue.record("the first advertiser call is not the start: \(advertiser.all)")
            return
        }
        #expect(first["st"] == "1", "busy from the first announcement: \(first.txt)")
        #expect(first["rs"]?.isEmpty == false)

        // The first sender: the app under its kept ids, its media paused where it was.
        let sender = try await TestSender(port: ports.cast)
        defer { sender.close() }
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        try await sender.send(namespace: .receiver, #"{"type":"GET_STATUS","requestId":1}"#)
        let status = try await sender.next(namespace: .receiver, type: "RECEIVER_STATUS") {
            $0["requestId"]?.intValue == 1
        }
        let application = status["status"]?["applications"]?[0]
        #expect(application?["sessionId"]?.stringValue == "S-kept")
        #expect(application?["transportId"]?.stringValue == "T-kept")

        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#, destination: "T-kept")
        try await sender.send(namespace: .media, #"{"type":"GET_STATUS","requestId":2}"#, destination: "T-kept")
        let media = try await sender.next(namespace: .media, type: "MEDIA_STATUS") { $0["requestId"]?.intValue == 2 }
        let entry = media["status"]?[0]
        #expect(entry?["media"]?["contentId"]?.stringValue == "https://media.invalid/kept.mp4")
        // Paused as it was, after the device's buffering delay.
        #expect(["BUFFERING", "PAUSED"].contains(entry?["playerState"]?.stringValue))
        #expect(entry?["currentTime"]?.doubleValue == 42)
    }

    @Test func aStartThatCannotListenStopsTheRestoringDevice() async throws {
        let taken = Self.device(advertiser: RecordingAdvertiser())
        let ports = try await taken.start()
        defer { Task { await taken.stop() } }

        let advertiser = RecordingAdvertiser()
        let device = Self.device(advertiser: advertiser, castPort: ports.cast)
        await #expect(throws: (any Error).self) { try await device.start(restoring: Self.snapshot()) }
        // Nothing was announced, and the device is stopped: the restored app's media reads
        // and timers ended with it.
        #expect(advertiser.all.isEmpty)
        #expect(device.state.withLock { $0.stopped })
    }
}
