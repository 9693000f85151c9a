import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

extension EmulatorProcessSuites {
    /// PyChromecast 14 against an in-process virtual device, by address (no mDNS).
    @Suite(.serialized, .requires(.pythonPeers)) struct InteropPyChromecastTests {
        @Test func fullSessionWithASecondSender() async throws {
            let device = try await Interop.startDevice(name: "Interop Living Room")
            let identity = device.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_session.py",
                arguments: [device.options.address, try #require(identity.udn), identity.friendlyName]
            )
            report.expectSteps([
                "connect", "identity", "launch", "media namespace", "playing", "loaded media", "start time",
                "subtitle track", "subtitle active", "pause", "play", "seek", "playback rate", "subtitle off",
                "subtitle on", "volume", "mute", "unmute", "enqueue", "queue next", "queue previous",
                "playing again", "second joins app", "second sees media", "first told of second's pause", "stop",
                "quit app",
            ])
            await device.stop()
        }

        /// The device reads what PyChromecast loads (served from loopback by the test): an MP4
        /// with `moov` at its end shows its own duration, a live HLS playlist is LIVE, and a
        /// dead link reaches PyChromecast's `load_media_failed` with MEDIA_NETWORK.
        @Test func realMediaReachesPyChromecastsStatus() async throws {
            try await MediaFetcherTests.withServer { base in
                let device = try await Interop.startDevice(name: "Interop Media Room", mediaMode: .fetch)
                let identity = device.configuration.identity
                let seconds = try #require(MP4ProbeTests.expected.duration)
                let report = try await Interop.runScript(
                    "pychromecast_media.py",
                    arguments: [
                        device.options.address, try #require(identity.udn), identity.friendlyName, base + "/end.mp4",
                        "\(seconds)", base + "/live.m3u8", base + "/nothing-here.mp4",
                    ]
                )
                report.expectSteps([
                    "connect", "launch", "live playing", "live stream type", "live has no duration", "mp4 playing",
                    "mp4 duration from the file", "mp4 buffered", "dead link load failed", "dead link error code",
                    "dead link idle error",
                ])
                await device.stop()
            }
        }

        /// PyChromecast's MultizoneManager on a virtual group of two speakers: members added
        /// as it connects, one member's volume, media control on the group, a member leaving.
        @Test func multizoneManagerFollowsAVirtualGroup() async throws {
            let (fleet, configuration) = try await Self.startGroupFleet()
            let group = try #require(await fleet.device(named: "Interop Downstairs"))
            let hall = try #require(await fleet.device(named: "Interop Hall"))
            let identity = group.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_multizone.py",
                arguments: [
                    "group", group.options.address, "\(try #require(group.ports?.cast))", try #require(identity.udn),
                    identity.friendlyName,
                    "http://\(hall.options.address):\(try #require(hall.ports?.http))/control/group",
                ]
            )
            report.expectSteps([
                "group cast type", "connect", "members added", "member names", "member volume updated", "group plays",
                "group pauses", "playback session", "member leaves", "device removed", "manager forgets membership",
            ])
            let kitchen = try #require(await fleet.device(named: "Interop Kitchen"))
            #expect(kitchen.engineSnapshot?.ownMultizoneDevice.volume?.level == 0.35)
            #expect(configuration.groups.count == 1)
            await fleet.stop()
        }

        /// Two speakers on consecutive random loopback addresses with the real ports (and the
        /// control endpoint), and their group on the first one's address.
        static func startGroupFleet() async throws -> (DeviceFleet, FleetConfiguration) {
            var lastError: (any Error)?
            for _ in 0..<8 {
                let base = Int.random(in: 50...240)
                func speaker(_ name: String, _ address: String) -> FleetConfiguration.Device {
                    let identity = DeviceIdentity(
                        friendlyName: name,
                        deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                        modelName: "Google Nest Mini"
                    )
                    var options = DeviceServerOptions(address: address)
                    // A loaded run can hold a request up for many seconds: the patience, not 10 s.
                    options.requestTimeout = TestTiming.patience
                    options.controlEndpointEnabled = true
                    return FleetConfiguration.Device(
                        configuration: VirtualDeviceConfiguration(identity: identity, profile: .speaker),
                        options: options
                    )
                }
                var configuration = FleetConfiguration(devices: [
                    speaker("Interop Kitchen", "127.0.0.\(base)"), speaker("Interop Hall", "127.0.0.\(base + 1)"),
                ])
                configuration.groups = [
                    FleetConfiguration.Group(
                        name: "Interop Downstairs",
                        members: ["Interop Kitchen", "Interop Hall"],
                        castPort: 0
                    )
                ]
                let fleet = DeviceFleet()
                do {
                    try await fleet.start(configuration)
                    return (fleet, configuration)
                } catch let error as TCPError where error.code == .addressInUse {
                    lastError = error
                }
            }
            throw lastError ?? TCPError.closed
        }
    }
}

extension EmulatorProcessSuites {
    /// PyChromecast's MultizoneController against a virtual speaker in no group.
    @Suite(.serialized, .requires(.pythonPeers)) struct InteropPyChromecastMultizoneTests {
        @Test func multizoneControllerSeesTheSpeakerAndSetsItsVolume() async throws {
            let device = try await Interop.startDevice(name: "Interop Kitchen speaker", profile: .speaker)
            let identity = device.configuration.identity
            let report = try await Interop.runScript(
                "pychromecast_multizone.py",
                arguments: [device.options.address, try #require(identity.udn), identity.friendlyName]
            )
            report.expectSteps([
                "connect", "multizone status", "lists itself", "member name", "member keys", "casting groups",
                "device updated", "receiver volume follows", "still one member",
            ])
            await device.stop()
        }
    }
}
