import CastCore
import CastNetEmbedded
import CastSync
import CastTestSupport
import Testing

@testable import CastEmulator

/// A speaker group and its members as whole devices joined by the hub, with senders in
/// memory (``MemorySender``): the group serves multizone, carries volume and playback to its
/// members and hears theirs, and reports a member that leaves, reboots or goes offline. The
/// group's own listener and the control endpoint stay with `ServerSpeakerGroupTests`.
@Suite struct SpeakerGroupInMemoryTests {
    struct Group {
        let loop = EmbeddedLoop()
        let hub = SpeakerGroupHub()
        let group: VirtualDevice
        let kitchen: VirtualDevice
        let hall: VirtualDevice

        init() {
            func speaker(_ name: String, _ model: String, volume: Double, on loop: EmbeddedLoop) -> VirtualDevice {
                var configuration = VirtualDeviceConfiguration(
                    identity: DeviceIdentity(
                        friendlyName: name,
                        deviceID: FleetConfiguration.randomDeviceID(),
                        modelName: model
                    ),
                    profile: DeviceProfile(model: model)
                )
                configuration.volume = Volume(level: volume, muted: false)
                return VirtualDevice(
                    configuration: configuration,
                    options: DeviceServerOptions(address: name == "Kitchen" ? "127.0.0.2" : "127.0.0.3"),
                    clock: loop.clock
                )
            }
            kitchen = speaker("Kitchen", "Google Nest Mini", volume: 0.4, on: loop)
            hall = speaker("Hall", "Google Nest Hub", volume: 0.8, on: loop)
            let made = SpeakerGroupHub.groupConfiguration(
                name: "Downstairs",
                deviceID: FleetConfiguration.randomDeviceID(),
                members: [kitchen, hall],
                leader: kitchen,
                castPort: 32_101,
                template: kitchen.options
            )
            group = VirtualDevice(configuration: made.configuration, options: made.options, clock: loop.clock)
            hub.register(group: group, members: [kitchen, hall], leader: kitchen)
        }

        /// A sender connected to `receiver-0` of `device`.
        func platformSender(_ device: VirtualDevice) throws -> MemorySender {
            let sender = MemorySender(to: device, loop: loop)
            try sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
            return sender
        }
    }

    @Test func groupServesMultizoneAndCarriesVolumeAndPlaybackToItsMembers() async throws {
        let rig = Group()
        let (group, kitchen, hall) = (rig.group, rig.kitchen, rig.hall)
        #expect(group.configuration.identity.modelName == "Google Cast Group")
        #expect(group.advertisement["md"] == "Google Cast Group")
        #expect(group.advertisement["ca"] == "2084")
        #expect(group.advertisement.instanceName.hasPrefix("Google-Cast-Group-"))

        let toGroup = try rig.platformSender(group)
        let toHall = try rig.platformSender(hall)
        try toGroup.send(namespace: .multizone, #"{"type":"GET_STATUS","requestId":1}"#)
        let status = try await toGroup.next(namespace: .multizone, type: "MULTIZONE_STATUS")
        #expect(
            status["status"]?["devices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Kitchen", "Hall"]
        )

        // SET_DEVICE_VOLUME on the group reaches the member itself.
        let hallID = SpeakerGroupHub.memberID(of: hall)
        try toGroup.send(
            namespace: .multizone,
            #"{"type":"SET_DEVICE_VOLUME","requestId":2,"deviceId":"\#(hallID)","volume":{"level":0.5}}"#
        )
        let updated = try await toGroup.next(namespace: .multizone, type: "DEVICE_UPDATED")
        #expect(updated["device"]?["deviceId"]?.stringValue == hallID)
        let hallStatus = try await toHall.next(namespace: .receiver, type: "RECEIVER_STATUS")
        #expect(hallStatus["status"]?["volume"]?["level"]?.doubleValue == DeviceProfile.float32(0.5))

        // A member's own volume change reaches the group.
        let toKitchen = try rig.platformSender(kitchen)
        try toKitchen.send(namespace: .receiver, #"{"type":"SET_VOLUME","requestId":3,"volume":{"level":0.2}}"#)
        let kitchenUpdate = try await toGroup.next(namespace: .multizone, type: "DEVICE_UPDATED")
        #expect(kitchenUpdate["device"]?["name"] == "Kitchen")
        #expect(kitchenUpdate["device"]?["volume"]?["level"]?.doubleValue == DeviceProfile.float32(0.2))

        // Playing on the group: the members report the follower app.
        try toGroup.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":4}"#)
        let session = try await toGroup.next(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED")
        #expect(session["playbackSession"]?["deviceIds"]?.arrayValue?.count == 2)
        let following = try await toHall.next(namespace: .receiver, type: "RECEIVER_STATUS") {
            $0["status"]?["applications"]?[0]?["appId"] == "531A4F84"
        }
        #expect(following["status"]?["applications"]?[0]?["universalAppId"] == "CC1AD845")

        // The hall starts its own session and leaves the group's playback.
        try toHall.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":5}"#)
        let left = try await toGroup.next(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED")
        #expect(left["playbackSession"]?["deviceIds"] == [.string(SpeakerGroupHub.memberID(of: kitchen))])

        // The kitchen goes offline mid-playback: the group reports it removed.
        // Its connection closes once what it sent is read: the loop runs, and the kitchen's
        // sender reads, while the stop waits for it.
        let stopped = Locked(false)
        let stopping = Task {
            await kitchen.stop()
            stopped.withLock { $0 = true }
        }
        try await withDeadline(TestTiming.hangGuard, "the kitchen to stop") {
            try await rig.loop.run(until: {
                toKitchen.takeOutput()
                return stopped.withLock { $0 }
            })
        }
        await stopping.value
        rig.hub.deviceStopped(kitchen)
        let removed = try await toGroup.next(namespace: .multizone, type: "DEVICE_REMOVED")
        #expect(removed["deviceId"]?.stringValue == SpeakerGroupHub.memberID(of: kitchen))
        let emptied = try await toGroup.next(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED")
        #expect(emptied["playbackSession"]?["deviceIds"] == [])
    }

    @Test func aRebootedMemberKeepsItsGroupsAndLeavesThePlayback() async throws {
        let rig = Group()
        let toGroup = try rig.platformSender(rig.group)
        try toGroup.send(namespace: .receiver, #"{"type":"LAUNCH","appId":"CC1AD845","requestId":1}"#)
        _ = try await toGroup.next(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED")
        rig.kitchen.reboot()
        let left = try await toGroup.next(namespace: .multizone, type: "PLAYBACK_SESSION_UPDATED")
        #expect(left["playbackSession"]?["deviceIds"]?.arrayValue?.count == 1)
        #expect(rig.kitchen.engineSnapshot?.castingGroups.map(\.name) == ["Downstairs"])
        #expect(rig.kitchen.engineSnapshot?.runningApplication == nil)
    }

    @Test func aMemberLeavesAndJoinsThroughTheHub() async throws {
        let rig = Group()
        let toGroup = try rig.platformSender(rig.group)
        rig.hub.remove(rig.hall, from: rig.group)
        let removed = try await toGroup.next(namespace: .multizone, type: "DEVICE_REMOVED")
        #expect(removed["deviceId"]?.stringValue == SpeakerGroupHub.memberID(of: rig.hall))
        #expect(rig.hub.groups(of: rig.hall).isEmpty)
        rig.hub.add(rig.hall, to: rig.group)
        let added = try await toGroup.next(namespace: .multizone, type: "DEVICE_ADDED")
        #expect(added["device"]?["name"] == "Hall")
        #expect(rig.hub.groups(of: rig.hall).map(\.name) == ["Downstairs"])
    }
}

extension MemorySender {
    /// The next message of `type` on `namespace` that `matches`, skipping the others.
    func next(
        namespace: CastNamespace,
        type: String,
        where matches: (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        while true {
            let message = try #require(try await receive(), "connection closed waiting for \(type)")
            guard message.namespace == namespace, let text = message.payloadUTF8,
                let value = try? JSONValue(parsing: text), value["type"]?.stringValue == type, matches(value)
            else { continue }
            return value
        }
    }
}
