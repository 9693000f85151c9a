import CastCore
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender
@testable import CastSenderUI

/// ``GroupVolumeModel`` against a virtual speaker group over TLS (two speakers and the
/// group on the leader's address): what it lists comes from the group's `MULTIZONE_STATUS`
/// and `DEVICE_*`, what it sets is checked on the member's own engine.
@Suite struct GroupVolumeModelTests {
    struct Rig {
        let fleet: DeviceFleet
        let group: VirtualDevice
        let kitchen: VirtualDevice
        let hall: VirtualDevice
        let queue = DispatchQueue(label: "group-volume-callbacks")

        /// With `setupAddresses`, each speaker on its own loopback address with its setup
        /// server on 8008 (where a device added by address is asked for its name and groups).
        static func start(setupAddresses base: Int? = nil) async throws -> Rig {
            var next = base
            func speaker(_ name: String, volume: Double) -> FleetConfiguration.Device {
                let identity = DeviceIdentity(
                    friendlyName: name,
                    deviceID: FleetConfiguration.randomDeviceID(),
                    modelName: "Google Nest Mini"
                )
                var configuration = VirtualDeviceConfiguration(identity: identity, profile: .speaker)
                configuration.volume = Volume(level: volume, muted: false)
                // A loaded run can starve a sender's heartbeat past the 20 s liveness timeout.
                configuration.livenessTimeout = TestTiming.patience
                var options = DeviceServerOptions.ephemeral(address: next.map { "127.0.0.\($0)" } ?? "127.0.0.1")
                // A loaded run can hold a request up for many seconds: the patience, not 10 s.
                options.requestTimeout = TestTiming.patience
                if let address = next {
                    options.httpPort = 8008
                    next = address + 1
                }
                options.requestTimeout = TestTiming.scaled(.seconds(30))
                return FleetConfiguration.Device(configuration: configuration, options: options)
            }
            var configuration = FleetConfiguration(devices: [
                speaker("Kitchen", volume: 0.4), speaker("Hall", volume: 0.8),
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
                addresses: [IPAddress(group.options.address)!],
                port: UInt16(group.ports?.cast ?? 0)
            )
        }

        func context() -> CastContext {
            var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
            options.disableDiscoveryAutostart = true
            options.callbackQueue = queue
            options.trustVirtualDevices()
            return CastContext(options: options)
        }

        /// Waits, for at most `timeout` of real time (times the run's slowdown), until `condition`
        /// holds. The SDK's and the device's state move with frames over real sockets that
        /// nothing in the test sees arrive, so the condition is polled (``pollUntil``).
        func eventually(timeout: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
            (try? await pollUntil("the state over real sockets", within: timeout, condition)) != nil
        }
    }

    @Test func listsMembersAndSetsOneThroughTheGroup() async throws {
        let rig = try await Rig.start()
        defer { Task { await rig.fleet.stop() } }
        let context = rig.context()
        let model = GroupVolumeModel(context: context)
        #expect(model.state == .unavailable, "no session: no members")
        #expect(model.setVolume(0.5, forMember: "anything") == nil)

        _ = try await context.sessionManager.startSession(with: rig.target)
        #expect(await rig.eventually { model.state.members.count == 2 })
        var state = model.state
        #expect(state.groupName == "Downstairs")
        #expect(state.isGroup)
        #expect(state.members.map(\.name) == ["Kitchen", "Hall"])
        #expect(state.members.map(\.volume.percent) == [40, 80])
        #expect(state.members.allSatisfy { $0.volume.inputEnabled && !$0.volume.isMuted })
        let hall = state.members[1].id

        // The slider of one member: shown at once, applied on that speaker only.
        let request = try #require(model.setVolume(0.25, forMember: hall))
        #expect(model.state.members[1].volume.percent == 25)
        try await request.result
        #expect(await rig.eventually { rig.hall.engineSnapshot?.deviceVolume.level == 0.25 })
        #expect(rig.kitchen.engineSnapshot?.deviceVolume.level == 0.4)

        // Mute through a member's own DeviceVolumeController.
        let kitchen = DeviceVolumeController(control: model.control(forMember: state.members[0].id))
        #expect(kitchen.state.percent == 40)
        try await #require(kitchen.toggleMuted()).result
        #expect(await rig.eventually { rig.kitchen.engineSnapshot?.deviceVolume.muted == true })
        #expect(await rig.eventually { model.state.members[0].volume.isMuted })

        // Steps of 0.05, and unknown members or non-numbers are refused.
        try await #require(model.volumeUp(forMember: hall)).result
        #expect(await rig.eventually { rig.hall.engineSnapshot?.deviceVolume.level == 0.3 })
        #expect(model.setVolume(.nan, forMember: hall) == nil)
        #expect(model.setMuted(true, forMember: "no-such-member") == nil)

        // A volume changed on the speaker itself shows through the group's DEVICE_UPDATED.
        rig.kitchen.multizoneUpdate(.applyVolume(Volume(level: 0.7, muted: false)))
        #expect(await rig.eventually { model.state.members[0].volume.percent == 70 })
        state = model.state
        #expect(!state.members[0].volume.isMuted)

        // A member removed from the group leaves the list.
        #expect(await rig.fleet.remove(member: "Hall", fromGroup: "Downstairs"))
        #expect(await rig.eventually { model.state.members.map(\.name) == ["Kitchen"] })

        await context.sessionManager.endSession(stopCasting: true)
        #expect(await rig.eventually { model.state == .unavailable })
    }

    @Test func chooserListsTheMembersOfTheConnectedGroup() async throws {
        // Port 8008 of a random address may be another suite's: a few addresses are tried.
        var started: Rig?
        for _ in 0..<8 where started == nil {
            started = try? await Rig.start(setupAddresses: Int.random(in: 50...240))
        }
        let rig = try #require(started, "no free pair of 127.0.0.x:8008")
        defer { Task { await rig.fleet.stop() } }
        let context = rig.context()
        let chooser = DeviceChooserModel(context: context, searchTimeout: .seconds(3600))
        let group = try await context.discoveryManager.addDevice(
            host: rig.group.options.address,
            port: rig.group.ports?.cast ?? 0
        )
        #expect(group.isGroup)
        #expect(await rig.eventually { chooser.state.devices.map(\.name) == ["Downstairs"] })
        #expect(chooser.state.devices.first?.isGroup == true)
        #expect(chooser.state.devices.first?.members == [], "no session: members not known")

        try await chooser.select(group.id)
        #expect(await rig.eventually { chooser.state.devices.first?.members == ["Kitchen", "Hall"] })
        #expect(await rig.fleet.remove(member: "Kitchen", fromGroup: "Downstairs"))
        #expect(await rig.eventually { chooser.state.devices.first?.members == ["Hall"] })

        // Discovery keeps what the group last reported once the session is over.
        await context.sessionManager.endSession(stopCasting: true)
        #expect(await rig.eventually { context.sessionManager.currentSession == nil })
        #expect(chooser.state.devices.first?.members == ["Hall"])
        #expect(context.discoveryManager.device(withID: group.id)?.groupMembers.map(\.name) == ["Hall"])
    }
}
