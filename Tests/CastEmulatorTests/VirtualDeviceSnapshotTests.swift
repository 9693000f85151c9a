import CastCore
import CastEmulator
import CastTime
import Foundation
import Testing

/// A device hosted inside an app keeps its running receiver app across the app's restarts:
/// a snapshot of the engine, restored in a new engine, serves the same session.
@Suite struct VirtualDeviceSnapshotTests {
    static let load =
        #"{"type":"LOAD","requestId":2,"media":{"contentId":"http://m/a.mp4","streamType":"BUFFERED","duration":120},"activeTrackIds":[],"queueData":{"repeatMode":"REPEAT_ALL","items":[{"media":{"contentId":"http://m/a.mp4","streamType":"BUFFERED","duration":120},"autoplay":true},{"media":{"contentId":"http://m/b.mp4","streamType":"BUFFERED","duration":90},"autoplay":true}]}}"#

    @Test func theSnapshotRestoresTheSessionItsQueueAndThePosition() throws {
        var device = DeviceHarness { $0.bufferingDelay = .zero }
        let transportID = device.startMediaApp()
        device.media(Self.load, transportID: transportID)
        device.advance(by: .seconds(12))
        let before = try #require(device.engine.runningApplication)
        let snapshot = try #require(device.engine.snapshot(at: device.now))
        #expect(snapshot.sessionID == before.sessionID)
        #expect(snapshot.transportID == transportID)
        #expect(snapshot.items?.count == 2)
        #expect(snapshot.isPlaying == true)
        #expect(abs((snapshot.position ?? 0) - 12) < 0.01)

        // The snapshot survives a file, as castvideos keeps it.
        let stored = try JSONDecoder().decode(VirtualDeviceSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(stored == snapshot)

        var next = DeviceHarness { $0.bufferingDelay = .zero }
        _ = next.engine.restore(stored, at: next.now)
        let restored = try #require(next.engine.runningApplication)
        #expect(restored.sessionID == before.sessionID)
        #expect(restored.transportID == transportID)
        let status = try #require(next.engine.mediaStatus(at: next.now))
        #expect(status.repeatMode == .all)
        #expect(status.media?.contentID == "http://m/a.mp4")
        #expect(abs((status.currentTime ?? 0) - 12) < 0.01)
        next.advance(by: .seconds(3))
        let later = try #require(next.engine.mediaStatus(at: next.now))
        #expect(later.playerState == .playing)
        #expect(abs((later.currentTime ?? 0) - 15) < 0.01, "it plays on from where it was")

        // A sender joining with the saved ids finds the session (GET_STATUS lists it).
        next.open()
        next.connectPlatform(1, sender: "sender-0")
        let reply = next.send(#"{"type":"GET_STATUS","requestId":7}"#, namespace: .receiver)
        let payload = try #require(reply.payloads(namespace: .receiver, type: "RECEIVER_STATUS").first)
        #expect(payload["status"]?["applications"]?[0]?["sessionId"]?.stringValue == before.sessionID)
    }

    @Test func aPausedSessionStaysPausedAndTheIdleScreenKeepsNothing() throws {
        let idle = DeviceHarness()
        #expect(idle.engine.snapshot(at: idle.now) == nil)

        var device = DeviceHarness { $0.bufferingDelay = .zero }
        let transportID = device.startMediaApp()
        device.media(Self.load, transportID: transportID)
        device.advance(by: .seconds(5))
        device.media(#"{"type":"PAUSE","requestId":3,"mediaSessionId":1}"#, transportID: transportID)
        let snapshot = try #require(device.engine.snapshot(at: device.now))
        #expect(snapshot.isPlaying == false)
        var next = DeviceHarness { $0.bufferingDelay = .zero }
        _ = next.engine.restore(snapshot, at: next.now)
        next.advance(by: .seconds(4))
        let status = try #require(next.engine.mediaStatus(at: next.now))
        #expect(status.playerState == .paused)
        #expect(abs((status.currentTime ?? 0) - 5) < 0.01)
    }

    @Test func aSnapshotOfAnAppTheDeviceDoesNotHaveRestoresNothing() {
        var device = DeviceHarness()
        var snapshot = VirtualDeviceSnapshot(appID: "NOSUCHAP", sessionID: "s", transportID: "t")
        snapshot.items = []
        let actions = device.engine.restore(snapshot, at: device.now)
        #expect(device.engine.runningApplication?.sessionID != "s")
        #expect(
            actions.contains { if case .log(let entry) = $0 { entry.message == "snapshot app unknown" } else { false } }
        )
    }
}
