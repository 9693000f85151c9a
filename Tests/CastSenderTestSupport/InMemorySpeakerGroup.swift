package import CastCore
package import CastEmulator
import Foundation

/// A speaker group in memory: Kitchen (127.0.0.11) and Hall (127.0.0.12), each answering on
/// port 8009, grouped as Downstairs on the leader's address at port 32101, all three on the
/// loop of an ``InMemoryRig`` and linked by a ``SpeakerGroupHub`` as a ``DeviceFleet`` links
/// its groups (what a member changes reaches the group, and the other way round).
package struct InMemorySpeakerGroup: Sendable {
    package let hub = SpeakerGroupHub()
    package let group: VirtualDevice
    package let kitchen: VirtualDevice
    package let hall: VirtualDevice

    /// The group's port on its leader's address (32xxx on hardware).
    package static let groupPort = 32_101

    /// - Parameters:
    ///   - rig: the loop, clock and connector the devices answer on.
    ///   - kitchenModel: Kitchen's model, whose profile (capabilities, volume steps) it takes.
    ///   - hallModel: Hall's model.
    ///   - leader: the member serving the group ("Kitchen" or "Hall").
    package init(
        rig: InMemoryRig,
        kitchenModel: String = "Google Nest Mini",
        hallModel: String = "Google Home",
        leader: String = "Kitchen"
    ) {
        func speaker(_ name: String, _ model: String, id: String, host: String, volume: Double) -> VirtualDevice {
            let identity = DeviceIdentity(friendlyName: name, deviceID: id, modelName: model)
            var configuration = VirtualDeviceConfiguration(identity: identity, profile: DeviceProfile(model: model))
            configuration.volume = Volume(level: volume, muted: false)
            configuration.bufferingDelay = .zero
            var options = DeviceServerOptions(address: host)
            options.castPort = rig.port
            let device = VirtualDevice(configuration: configuration, options: options, clock: rig.clock, log: rig.log)
            rig.serve(device, host: host, port: rig.port)
            return device
        }
        kitchen = speaker(
            "Kitchen",
            kitchenModel,
            id: "11111111222233334444555555555555",
            host: "127.0.0.11",
            volume: 0.4
        )
        hall = speaker("Hall", hallModel, id: "66666666777788889999aaaaaaaaaaaa", host: "127.0.0.12", volume: 0.8)
        let leading = leader == "Hall" ? hall : kitchen
        var made = SpeakerGroupHub.groupConfiguration(
            name: "Downstairs",
            deviceID: "0f0f0f0f000011112222333333333333",
            members: [kitchen, hall],
            leader: leading,
            castPort: Self.groupPort
        )
        // Media plays as soon as it loads, on the group as on its members: no time passes
        // unless the test advances the clock.
        made.configuration.bufferingDelay = .zero
        group = VirtualDevice(configuration: made.configuration, options: made.options, clock: rig.clock, log: rig.log)
        rig.serve(group, host: leading.options.address, port: Self.groupPort)
        hub.register(group: group, members: [kitchen, hall], leader: leading)
    }

    /// The device as mDNS would describe it.
    package func described(_ device: VirtualDevice) -> CastDevice {
        let identity = device.configuration.identity
        return CastDevice(
            id: CastDevice.parseID(identity.deviceID) ?? UUID(),
            friendlyName: identity.friendlyName,
            modelName: identity.modelName,
            capabilities: CastDeviceCapabilities(rawValue: identity.capabilities.rawValue),
            addresses: [IPAddress(device.options.address)!],
            port: UInt16(device.options.castPort)
        )
    }

    /// Takes `device` offline, as ``DeviceFleet/stop(_:)`` does: its connections close and
    /// its groups report it removed (`DEVICE_REMOVED`).
    package func stop(_ device: VirtualDevice) async {
        await device.stop()
        hub.deviceStopped(device)
    }

    /// Takes `member` out of the group, as ``DeviceFleet/remove(member:fromGroup:)`` does.
    package func remove(_ member: VirtualDevice) {
        hub.remove(member, from: group)
    }
}
