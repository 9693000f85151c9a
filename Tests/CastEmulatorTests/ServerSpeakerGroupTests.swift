import CastCore
import CastNet
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

/// A speaker group and its members as a started fleet over TLS on 127.0.0.1: the group on a
/// Cast port of its own, its members' control endpoints and setup documents over HTTP. What
/// the group does between its members is tested in memory (`SpeakerGroupInMemoryTests`).
@Suite struct ServerSpeakerGroupTests {
    static func fleet() async throws -> (DeviceFleet, group: VirtualDevice, kitchen: VirtualDevice, hall: VirtualDevice)
    {
        func speaker(_ name: String, _ model: String, volume: Double) -> FleetConfiguration.Device {
            let identity = DeviceIdentity(
                friendlyName: name,
                deviceID: FleetConfiguration.randomDeviceID(),
                modelName: model
            )
            var configuration = VirtualDeviceConfiguration(identity: identity, profile: DeviceProfile(model: model))
            configuration.volume = Volume(level: volume, muted: false)
            configuration.livenessTimeout = TestTiming.patience
            return FleetConfiguration.Device(configuration: configuration, options: .forTests())
        }
        var configuration = FleetConfiguration(devices: [
            speaker("Kitchen", "Google Nest Mini", volume: 0.4), speaker("Hall", "Google Nest Hub", volume: 0.8),
        ])
        configuration.groups = [
            FleetConfiguration.Group(name: "Downstairs", members: ["Kitchen", "Hall"], castPort: 0)
        ]
        try configuration.validateGroups()
        let fleet = DeviceFleet()
        try await fleet.start(configuration)
        let group = try #require(await fleet.device(named: "Downstairs"))
        let kitchen = try #require(await fleet.device(named: "Kitchen"))
        let hall = try #require(await fleet.device(named: "Hall"))
        return (fleet, group, kitchen, hall)
    }

    /// A sender connected to `receiver-0` of `device`.
    static func platformSender(_ device: VirtualDevice) async throws -> TestSender {
        let sender = try await TestSender(port: try #require(device.ports?.cast))
        try await sender.send(namespace: .connection, #"{"type":"CONNECT"}"#)
        return sender
    }

    static func post(_ body: String, port: Int) async throws -> (status: Int, head: String, body: [UInt8]) {
        try await httpExchange(
            port: port,
            request: "POST /control/group HTTP/1.1\r\nX-Cast-Control: 1\r\nContent-Length: \(body.utf8.count)\r\n\r\n",
            body: Array(body.utf8)
        )
    }

    @Test func controlEndpointMovesAMemberInAndOutOfTheGroup() async throws {
        let (fleet, group, _, hall) = try await Self.fleet()
        // The group listens for Cast on a port of its own and serves no HTTP.
        #expect(group.ports?.http == 0 && group.ports?.https == 0)
        #expect(group.advertisement.port == group.ports?.cast)
        let toGroup = try await Self.platformSender(group)
        let port = try #require(hall.ports?.http)
        let leave = try await Self.post(#"{"group":"Downstairs","member":false}"#, port: port)
        #expect(leave.status == 200)
        let removed = try await toGroup.next(namespace: .multizone, type: "DEVICE_REMOVED")
        #expect(removed["deviceId"]?.stringValue == SpeakerGroupHub.memberID(of: hall))
        #expect(await fleet.groupHub.groups(of: hall).isEmpty)

        let join = try await Self.post(#"{"group":"Downstairs","member":true}"#, port: port)
        #expect(join.status == 200)
        let added = try await toGroup.next(namespace: .multizone, type: "DEVICE_ADDED")
        #expect(added["device"]?["name"] == "Hall")
        #expect(await fleet.groupHub.groups(of: hall).map(\.name) == ["Downstairs"])
        let info = try await httpExchange(port: port, request: "GET /setup/eureka_info HTTP/1.1\r\n\r\n")
        let eureka = try JSONValue(parsing: info.body)
        #expect(eureka["multizone"]?["groups"]?[0]?["name"] == "Downstairs")
        #expect(eureka["multizone"]?["groups"]?[0]?["cast_port"]?.intValue == group.ports?.cast)

        for body in [#"{"group":"Nowhere","member":true}"#, #"{"group":"Downstairs"}"#, "[]", "{"] {
            let response = try await Self.post(body, port: port)
            #expect(response.status == 400 || response.status == 404, "\(body) answered \(response.status)")
        }
        toGroup.close()
        await fleet.stop()
    }
}

extension TestSender {
    /// The next message of `type` on `namespace` that `matches`, skipping the others.
    func next(
        namespace: CastNamespace,
        type: String,
        timeout: Duration = TestTiming.patience,
        where matches: (JSONValue) -> Bool = { _ in true }
    ) async throws -> JSONValue {
        while true {
            let message = try #require(try await receive(timeout: timeout), "connection closed waiting for \(type)")
            guard message.namespace == namespace, let text = message.payloadUTF8,
                let value = try? JSONValue(parsing: text), value["type"]?.stringValue == type, matches(value)
            else { continue }
            return value
        }
    }
}
