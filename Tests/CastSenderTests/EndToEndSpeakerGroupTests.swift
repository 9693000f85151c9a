import CastCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against a virtual speaker group in memory (``InMemorySpeakerGroup``): the group's
/// members, their volumes, a member's volume set through the group, and a member going offline
/// mid-playback. Frames move when the test runs the loop; what the session learns is awaited
/// on its multizone events.
@Suite struct EndToEndSpeakerGroupTests {
    final class Recorder: CastDeviceStatusListener {
        let events = Locked<[String]>([])
        func castSession(_ session: CastSession, didReceiveMultizoneStatus status: MultizoneStatus) {
            events.withLock { $0.append("status \(status.devices.count)") }
        }
        func castSession(_ session: CastSession, didAddMultizoneDevice device: MultizoneDevice) {
            events.withLock { $0.append("added \(device.name ?? "")") }
        }
        func castSession(_ session: CastSession, didUpdateMultizoneDevice device: MultizoneDevice) {
            events.withLock { $0.append("updated \(device.name ?? "")") }
        }
        func castSession(_ session: CastSession, didRemoveMultizoneDeviceWithID deviceID: String) {
            events.withLock { $0.append("removed \(deviceID)") }
        }
    }

    @Test func sessionOnAGroupSeesAndSetsItsMembers() async throws {
        let rig = InMemoryRig()
        let speakers = InMemorySpeakerGroup(rig: rig)
        let target = speakers.described(speakers.group)
        #expect(target.isGroup)
        let context = rig.context(rig.options())
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: target)
        }
        let recorder = Recorder()
        session.add(recorder)
        // Listeners are called before the streams hear the same event (one hop to the queue).
        let (watched, events) = (session.multizoneEvents(), session.multizoneEvents())

        // A session to a group asks for the members as it connects.
        try await rig.run(until: "the group's members", watching: watched) {
            session.multizoneStatus?.devices.count == 2
        }
        let members = try #require(session.multizoneStatus?.devices)
        #expect(members.map(\.name) == ["Kitchen", "Hall"])
        #expect(members[0].volumeLevel == DeviceProfile.float32(0.4))
        #expect(session.currentDeviceVolume == DeviceProfile.float32(0.6))

        // One member's volume, through the group, reaches that speaker.
        let hall = members[1]
        try await rig.run("the member's volume") { try await session.setDeviceVolume(0.25, for: hall).result }
        try await rig.run(until: "Hall at 0.25") { speakers.hall.engineSnapshot?.deviceVolume.level == 0.25 }
        // The stream may first carry the status asked for at connect.
        let seen = try await rig.run("the member's update") { () async -> MultizoneDevice? in
            for await event in events {
                if case .deviceUpdated(let member) = event { return member }
                guard case .statusReceived = event else {
                    Issue.record("unexpected \(event)")
                    return nil
                }
            }
            return nil
        }
        let device = try #require(seen)
        #expect(device.deviceID == hall.deviceID && device.volumeLevel == DeviceProfile.float32(0.25))
        try await rig.run("the member's mute") { try await session.setDeviceMuted(true, for: hall).result }
        try await rig.run(until: "Hall muted") { speakers.hall.engineSnapshot?.deviceVolume.muted == true }
        try await rig.run(until: "the session sees Hall muted", watching: watched) {
            session.multizoneStatus?.devices.last?.isMuted == true
        }

        // The group's own volume scales both members.
        try await rig.run("the group's volume") { try await session.setDeviceVolume(0.65).result }
        try await rig.run(until: "Kitchen scaled to 0.8") {
            speakers.kitchen.engineSnapshot?.deviceVolume.level.map { abs($0 - 0.8) < 1e-9 } == true
        }

        // Bad values never leave the SDK.
        #expect(session.setDeviceVolume(1.5, for: hall).error?.code == .invalidRequest)
        #expect(session.setDeviceVolume(.nan, for: hall).error?.code == .invalidRequest)
        #expect(session.setDeviceMuted(true, for: MultizoneDevice(deviceID: "")).error?.code == .invalidRequest)

        // Playing on the group; a member goes offline mid-playback.
        try await rig.run("the LOAD") {
            try await session.remoteMediaClient.load(
                LoadRequestData(
                    media: MediaInformation(
                        contentID: "http://127.0.0.1:9/a.mp3",
                        streamType: .buffered,
                        contentType: "audio/mpeg",
                        duration: 600
                    )
                )
            ).result
        }
        try await rig.run(until: "Kitchen plays with the group") {
            speakers.kitchen.engineSnapshot?.runningApplication?.appID == "531A4F84"
        }
        let kitchenID = SpeakerGroupHub.memberID(of: speakers.kitchen)
        try await rig.run("Kitchen going offline") { await speakers.stop(speakers.kitchen) }
        try await rig.run(until: "the group without Kitchen", watching: watched) {
            session.multizoneStatus?.devices.map(\.deviceID) == [hall.deviceID]
                && recorder.events.withLock { $0.contains("removed \(kitchenID)") }
        }
        #expect(recorder.events.withLock { $0.contains("updated Hall") })
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        try await rig.run("the session end") { await context.sessionManager.endSession() }
    }

    @Test func requestsFailWhenNotConnected() async throws {
        let rig = InMemoryRig()
        let speakers = InMemorySpeakerGroup(rig: rig)
        let context = rig.context(rig.options())
        let session = try await rig.run("the session start") {
            try await context.sessionManager.startSession(with: speakers.described(speakers.group))
        }
        try await rig.run("the session end") { await context.sessionManager.endSession() }
        #expect(session.requestMultizoneStatus().error?.code == .deviceNotConnected)
        #expect(session.setDeviceVolume(0.5, for: MultizoneDevice(deviceID: "x")).error?.code == .deviceNotConnected)
    }
}
