import CastCore
import CastNet
import CastNetCore
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator
@testable import CastSender

/// The discovery list learning speaker groups over TLS from virtual devices: a speaker's
/// `CASTING_GROUPS`, a group's `MULTIZONE_STATUS` (its members, and each member's groups),
/// the setup document's `multizone.groups`, and a member going offline mid-playback.
@Suite struct DiscoveryGroupMembershipTests {
    struct Rig {
        let fleet: DeviceFleet
        let group: VirtualDevice
        let kitchen: VirtualDevice
        let hall: VirtualDevice
        let queue = DispatchQueue(label: "discovery-group-callbacks")

        /// Kitchen and Hall on two loopback addresses of their own (every port ephemeral),
        /// grouped as Downstairs, led by Hall so that the group outlives Kitchen.
        static func start() async throws -> Rig {
            let base = Int.random(in: 2...250)
            func speaker(_ name: String, _ model: String, host: Int) -> FleetConfiguration.Device {
                let identity = DeviceIdentity(
                    friendlyName: name,
                    deviceID: FleetConfiguration.randomDeviceID(),
                    modelName: model
                )
                var configuration = VirtualDeviceConfiguration(identity: identity, profile: DeviceProfile(model: model))
                configuration.bufferingDelay = .zero
                var options = DeviceServerOptions.ephemeral(address: "127.0.\(base).\(host)")
                // A loaded run can hold a request up for many seconds: the patience, not 10 s.
                options.requestTimeout = TestTiming.patience
                options.requestTimeout = TestTiming.scaled(.seconds(30))
                return FleetConfiguration.Device(configuration: configuration, options: options)
            }
            var configuration = FleetConfiguration(devices: [
                speaker("Kitchen", "Google Nest Mini", host: 11), speaker("Hall", "Google Home", host: 12),
            ])
            configuration.groups = [
                FleetConfiguration.Group(name: "Downstairs", members: ["Kitchen", "Hall"], leader: "Hall", castPort: 0)
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

        /// The device as mDNS would describe it.
        func described(_ device: VirtualDevice) -> CastDevice {
            let identity = device.configuration.identity
            return CastDevice(
                id: CastDevice.parseID(identity.deviceID) ?? UUID(),
                friendlyName: identity.friendlyName,
                modelName: identity.modelName,
                capabilities: CastDeviceCapabilities(rawValue: identity.capabilities.rawValue),
                addresses: [IPAddress(device.options.address)!],
                port: UInt16(device.ports?.cast ?? 0)
            )
        }

        /// A context over TLS whose device list comes from `browser`, reading setup documents
        /// from the virtual devices' own HTTP ports.
        func context(browser: ScriptedBrowser) -> CastContext {
            var options = CastOptions(receiverApplicationID: DiscoveryCriteria.defaultMediaReceiverApplicationID)
            options.disableDiscoveryAutostart = true
            options.callbackQueue = queue
            options.trustVirtualDevices()
            let httpPorts = [kitchen, hall].reduce(into: [String: Int]()) { $0[$1.options.address] = $1.ports?.http }
            let clock = SystemCastClock()
            return CastContext(
                options: options,
                connector: TLSTransportConnector(configuration: CastConnectionConfiguration(), clock: clock),
                clock: clock,
                browser: browser,
                setupInfo: DeviceSetupInfoSource { host, timeout in
                    guard let port = httpPorts[host] else { return nil }
                    var client = HTTPClient()
                    client.timeout = timeout
                    let url = "http://\(host):\(port)/setup/eureka_info?params=name,device_info,multizone"
                    guard let response = try? await client.get(url), response.status.code == 200 else { return nil }
                    return try? DeviceSetupInfo(jsonBytes: response.body)
                }
            )
        }

        /// Waits, for at most `timeout` of real time (times the run's slowdown), until `condition`
        /// holds. The SDK's and the device's state move with frames over real sockets that
        /// nothing in the test sees arrive, so the condition is polled (``pollUntil``).
        func eventually(timeout: Duration = .seconds(60), _ condition: @escaping @Sendable () -> Bool) async -> Bool {
            (try? await pollUntil("the state over real sockets", within: timeout, condition)) != nil
        }
    }

    @Test func theListLearnsGroupsAndMembersFromSessions() async throws {
        let rig = try await Rig.start()
        let browser = ScriptedBrowser()
        let context = rig.context(browser: browser)
        let manager = context.discoveryManager
        let recorder = DiscoveryRecorder()
        manager.add(recorder)
        try manager.startDiscovery()
        let (group, kitchen, hall) = (rig.described(rig.group), rig.described(rig.kitchen), rig.described(rig.hall))
        for device in [group, kitchen, hall] { browser.announce(device) }
        #expect(await rig.eventually { manager.deviceCount == 3 })
        #expect(group.isGroup && !kitchen.isGroup)
        // mDNS says nothing about membership.
        #expect(manager.devices.allSatisfy { $0.groups.isEmpty && $0.groupMembers.isEmpty })

        // A session to a speaker asks which groups it is in (CASTING_GROUPS).
        let hallSession = try await context.sessionManager.startSession(with: hall)
        let downstairs = CastDevice.GroupReference(id: group.id, name: "Downstairs")
        #expect(await rig.eventually { hallSession.castingGroups == [downstairs] })
        #expect(await rig.eventually { manager.device(withID: hall.id)?.groups == [downstairs] })
        #expect(manager.groups(containing: hall).map(\.id) == [group.id])
        #expect(await rig.eventually { recorder.events.contains("update Hall") })
        await context.sessionManager.endSession()

        // A session to the group lists its members, and each member lists the group.
        let session = try await context.sessionManager.startSession(
            with: try #require(manager.device(withID: group.id))
        )
        #expect(
            await rig.eventually {
                manager.device(withID: group.id)?.groupMembers.map(\.name) == ["Kitchen", "Hall"]
            }
        )
        #expect(manager.device(withID: group.id)?.groupMembers.map(\.id) == [kitchen.id, hall.id])
        #expect(manager.members(of: group).map(\.friendlyName) == ["Kitchen", "Hall"])
        #expect(manager.device(withID: kitchen.id)?.groups == [downstairs])
        #expect(manager.device(withID: hall.id)?.groups == [downstairs], "listed once, though learned twice")
        #expect(
            await rig.eventually {
                recorder.events.contains("update Downstairs") && recorder.events.contains("update Kitchen")
            }
        )

        // Kitchen goes offline while the group plays: the list says so.
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
        let updates = manager.events()
        await rig.fleet.stop(rig.kitchen)
        #expect(await rig.eventually { manager.device(withID: group.id)?.groupMembers.map(\.id) == [hall.id] })
        #expect(manager.device(withID: kitchen.id)?.groups == [])
        #expect(manager.members(of: group).map(\.friendlyName) == ["Hall"])
        #expect(manager.groups(containing: kitchen).isEmpty)
        #expect(manager.device(withID: hall.id)?.groups == [downstairs])
        var reported: CastDevice?
        for await event in updates {
            if event.kind == .didUpdate, case let device = event.device, device.id == group.id {
                reported = device
                break
            }
        }
        #expect(reported?.groupMembers.map(\.name) == ["Hall"], "the group's update carries its members")
        #expect(session.remoteMediaClient.mediaStatus?.playerState == .playing)
        await context.sessionManager.endSession()
        manager.stopDiscovery()
        await rig.fleet.stop()
    }

    @Test func aSpeakerAddedByAddressListsTheGroupsOfItsSetupDocument() async throws {
        let rig = try await Rig.start()
        let context = rig.context(browser: ScriptedBrowser())
        let hall = try await context.discoveryManager.addDevice(
            host: rig.hall.options.address,
            port: rig.hall.ports?.cast ?? 0
        )
        let groupID = try #require(CastDevice.parseID(rig.group.configuration.identity.deviceID))
        #expect(hall.friendlyName == "Hall")
        #expect(hall.groups == [CastDevice.GroupReference(id: groupID, name: "Downstairs")])
        #expect(context.discoveryManager.device(withID: hall.id)?.groups.map(\.name) == ["Downstairs"])
        await rig.fleet.stop()
    }

    @Test func referencesFromTheNetworkAreChecked() {
        #expect(CastDevice.GroupReference(deviceID: "not an id", name: "x") == nil)
        let id = "ecdd1875-99fa-75be-deed-71691385bc70"
        let long = CastDevice.GroupReference(deviceID: id, name: String(repeating: "n", count: 1000))
        #expect(long?.name?.count == CastDevice.GroupReference.maximumNameLength)
        #expect(CastDevice.GroupReference(deviceID: id, name: "")?.name == nil)
        let many = (0..<100).map { CastDevice.GroupReference(id: UUID(), name: "\($0)") }
        #expect(CastDevice.GroupReference.unique(many + many).count == CastDevice.GroupReference.maximumCount)
        let payload: JSONValue = [
            "type": "CASTING_GROUPS",
            "status": [
                "groups": [
                    ["deviceId": .string(id), "name": "Downstairs"], ["deviceId": "bad", "name": "Dropped"],
                    ["uuid": .string(id.uppercased()), "name": "Again"], ["name": "No id"],
                ]
            ],
        ]
        #expect(CastSession.castingGroups(in: payload).map(\.name) == ["Downstairs"])
        #expect(CastSession.castingGroups(in: ["type": "CASTING_GROUPS"]).isEmpty)
    }
}
