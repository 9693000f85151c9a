import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The SDK against a virtual speaker group over TLS: the group's members, their volumes, a
/// member's volume set through the group, and a member going offline mid-playback.
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

    struct Rig {
        let fleet: DeviceFleet
        let group: VirtualDevice
        let kitchen: VirtualDevice
        let hall: VirtualDevice
        let queue = DispatchQueue(label: "group-callbacks")

        static func start() async throws -> Rig {
            func speaker(_ name: String, _ model: String, volume: Double) -> FleetConfiguration.Device {
                let identity = DeviceIdentity(
                    friendlyName: name,
                    deviceID: FleetConfiguration.randomDeviceID(),
                    modelName: model
                )
                var configuration = VirtualDeviceConfiguration(identity: identity, profile: DeviceProfile(model: model))
                configuration.volume = Volume(level: volume, muted: false)
                configuration.bufferingDelay = .zero
                // A loaded run can starve a sender's heartbeat past the 20 s liveness timeout.
                configuration.livenessTimeout = TestTiming.patience
                var options = DeviceServerOptions.ephemeral(address: "127.0.0.1")
                // A loaded run can hold a request up for many seconds: the patience, not 10 s.
                options.requestTimeout = TestTiming.patience
                options.requestTimeout = TestTiming.scaled(.seconds(30))
                return FleetConfiguration.Device(configuration: configuration, options: options)
            }
            var configuration = FleetConfiguration(devices: [
                speaker("Kitchen", "Google Nest Mini", volume: 0.4), speaker("Hall", "Google Home", volume: 0.8),
            ])
            configuration.groups = [
                FleetConfiguration.Group(name: "Downstairs", members: ["Kitchen", "Hall"], castPort: 0)
            ]
            let fleet = DeviceFleet()
            try await fleet.start(configuration)
            return Rig(
                fleet: fleet,
                group: try #require(await fleet.device(named: "Downstairs")),
                kitchen: try #require(await fleet.device(named: "Kitchen")),
                hall: try #require(await fleet.device(named: "Hall"))
            )
        }

        var target: CastDevice {
            let identity = group.configuration.identity
            return CastDevice(
                id: CastDevice.parseID(identity.deviceID) ?? UUID(),
                friendlyName: identity.friendlyName,
                modelName: identity.modelName,
                capabilities: CastDeviceCapabilities(rawValue: identity.capabilities.rawValue),
                addresses: [IPAddress("127.0.0.1")!],
                port: UInt16(group.ports?.cast ?? 0)
            )
        }

        func options() -> CastOptions {
            var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
            options.disableDiscoveryAutostart = true
            options.callbackQueue = queue
            options.trustVirtualDevices()
            return options
        }

        /// Waits, for at most `timeout` of real time (times the run's slowdown), until `condition`
        /// holds. The SDK's and the device's state move with frames over real sockets that
        /// nothing in the test sees arrive, so the condition is polled (``pollUntil``).
        func eventually(timeout: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
            (try? await pollUntil("the state over real sockets", within: timeout, condition)) != nil
        }
    }

    @Test func sessionOnAGroupSeesAndSetsItsMembers() async throws {
        let rig = try await Rig.start()
        #expect(rig.target.isGroup)
        let context = CastContext(options: rig.options())
        let session = try await context.sessionManager.startSession(with: rig.target)
        let recorder = Recorder()
        session.add(recorder)
        var events = session.multizoneEvents().makeAsyncIterator()

        // A session to a group asks for the members as it connects.
        #expect(await rig.eventually { session.multizoneStatus?.devices.count == 2 })
        let members = try #require(session.multizoneStatus?.devices)
        #expect(members.map(\.name) == ["Kitchen", "Hall"])
        #expect(members[0].volumeLevel == DeviceProfile.float32(0.4))
        #expect(session.currentDeviceVolume == DeviceProfile.float32(0.6))

        // One member's volume, through the group, reaches that speaker.
        let hall = members[1]
        try await session.setDeviceVolume(0.25, for: hall).result
        #expect(await rig.eventually { rig.hall.engineSnapshot?.deviceVolume.level == 0.25 })
        // The stream may first carry the status asked for at connect.
        var seen: MultizoneDevice?
        while let event = await events.next() {
            if case .deviceUpdated(let member) = event {
                seen = member
                break
            }
            guard case .statusReceived = event else {
                Issue.record("unexpected \(event)")
                break
            }
        }
        let device = try #require(seen)
        #expect(device.deviceID == hall.deviceID && device.volumeLevel == DeviceProfile.float32(0.25))
        try await session.setDeviceMuted(true, for: hall).result
        #expect(await rig.eventually { rig.hall.engineSnapshot?.deviceVolume.muted == true })
        #expect(await rig.eventually { session.multizoneStatus?.devices.last?.isMuted == true })

        // The group's own volume scales both members.
        try await session.setDeviceVolume(0.65).result
        #expect(
            await rig.eventually { rig.kitchen.engineSnapshot?.deviceVolume.level.map { abs($0 - 0.8) < 1e-9 } == true }
        )

        // Bad values never leave the SDK.
        #expect(session.setDeviceVolume(1.5, for: hall).error?.code == .invalidRequest)
        #expect(session.setDeviceVolume(.nan, for: hall).error?.code == .invalidRequest)
        #expect(session.setDeviceMuted(true, for: MultizoneDevice(deviceID: "")).error?.code == .invalidRequest)

        // Playing on the group; a member goes offline mid-playback.
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
        #expect(await rig.eventually { rig.kitchen.engineSnapshot?.runningApplication?.appID == "531A4F84" })
        let kitchenID = SpeakerGroupHub.memberID(of: rig.kitchen)
        await rig.fleet.stop(rig.kitchen)
        #expect(await rig.eventually { session.multizoneStatus?.devices.map(\.deviceID) == [hall.deviceID] })
        #expect(await rig.eventually { recorder.events.withLock { $0.contains("removed \(kitchenID)") } })
        #expect(recorder.events.withLock { $0.contains("updated Hall") })
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        await context.sessionManager.endSession()
        await rig.fleet.stop()
    }

    @Test func requestsFailWhenNotConnected() async throws {
        let rig = try await Rig.start()
        let context = CastContext(options: rig.options())
        let session = try await context.sessionManager.startSession(with: rig.target)
        await context.sessionManager.endSession()
        #expect(session.requestMultizoneStatus().error?.code == .deviceNotConnected)
        #expect(session.setDeviceVolume(0.5, for: MultizoneDevice(deviceID: "x")).error?.code == .deviceNotConnected)
        await rig.fleet.stop()
    }
}
