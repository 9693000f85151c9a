import CastCore
import CastNet
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

/// `cast group`, `cast volume|mute|unmute --member` and `cast devices` against a virtual
/// speaker group (two speakers and the group on the leader's address) run in-process.
@Suite("cast group end to end")
struct GroupCommandTests {
    struct Fixture {
        let fleet: DeviceFleet
        let group: VirtualDevice
        let kitchen: VirtualDevice
        let hall: VirtualDevice
        let state: URL

        /// Tries a few random pairs of loopback addresses: the leader's setup server needs port
        /// 8008 there, which another suite's device may hold on the same address.
        static func start(memberPrefix: String = "") async throws -> Fixture {
            var attempt = 0
            while true {
                attempt += 1
                do {
                    return try await start(base: Int.random(in: 50...240), memberPrefix: memberPrefix)
                } catch let error as TCPError where error.code == .addressInUse && attempt < 8 {
                    continue
                }
            }
        }

        /// - Parameter memberPrefix: put before the members' names (a hostile device's).
        static func start(base: Int, memberPrefix: String = "") async throws -> Fixture {
            func speaker(_ name: String, _ address: String, volume: Double) -> FleetConfiguration.Device {
                let identity = DeviceIdentity(
                    friendlyName: name,
                    deviceID: FleetConfiguration.randomDeviceID(),
                    modelName: "Google Nest Mini"
                )
                var configuration = VirtualDeviceConfiguration(identity: identity, profile: .speaker)
                configuration.volume = Volume(level: volume, muted: false)
                // A loaded run can starve a sender's heartbeat past the 20 s liveness timeout.
                configuration.livenessTimeout = TestTiming.patience
                var options = DeviceServerOptions.ephemeral(address: address)
                // A loaded run can hold a request up for many seconds: the patience, not 10 s.
                options.requestTimeout = TestTiming.patience
                // The leader's setup server on 8008 names the group for `-d HOST:PORT`.
                options.httpPort = 8008
                options.requestTimeout = TestTiming.scaled(options.requestTimeout)
                return FleetConfiguration.Device(configuration: configuration, options: options)
            }
            var configuration = FleetConfiguration(devices: [
                speaker(memberPrefix + "Kitchen", "127.0.0.\(base)", volume: 0.4),
                speaker(memberPrefix + "Hall", "127.0.0.\(base + 1)", volume: 0.8),
            ])
            configuration.groups = [
                FleetConfiguration.Group(
                    name: "Downstairs",
                    members: [memberPrefix + "Kitchen", memberPrefix + "Hall"],
                    castPort: 0
                )
            ]
            let fleet = DeviceFleet()
            try await fleet.start(configuration)
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("cast-group-\(UUID().uuidString)")
            return Fixture(
                fleet: fleet,
                group: try #require(await fleet.device(named: "Downstairs")),
                kitchen: try #require(await fleet.device(named: memberPrefix + "Kitchen")),
                hall: try #require(await fleet.device(named: memberPrefix + "Hall")),
                state: state
            )
        }

        var target: String { "\(group.options.address):\(group.ports?.cast ?? 0)" }

        func cast(_ arguments: String...) async throws -> CastProcess.Result {
            try await cast(on: target, arguments)
        }

        func cast(on device: String, _ arguments: [String]) async throws -> CastProcess.Result {
            try await CastProcess.run(
                ["-d", device] + arguments,
                environment: [
                    "CAST_STATE_DIR": state.path, "XDG_CONFIG_HOME": state.appendingPathComponent("config").path,
                    "HOME": state.path, "CAST_REQUEST_TIMEOUT": "20", "CAST_DISCOVERY_INTERFACES": "lo",
                    "CAST_TRUST_ROOTS": DeviceFixture.trustRootPath,
                ]
            )
        }

        func stop() async {
            await fleet.stop()
            try? FileManager.default.removeItem(at: state)
        }
    }

    @Test func groupListsMembersAndVolumeMemberSetsOne() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }

        var result = try await fixture.cast("group")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Kitchen\t40%\nHall\t80%\n")

        result = try await fixture.cast("group", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let group = try #require(json["group"] as? [String: Any])
        #expect(group["name"] as? String == "Downstairs")
        #expect(group["isGroup"] as? Bool == true)
        let members = try #require(json["members"] as? [[String: Any]])
        #expect(members.map { $0["name"] as? String } == ["Kitchen", "Hall"])
        #expect(members.map { $0["muted"] as? Bool } == [false, false])
        #expect((members[1]["level"] as? NSNumber)?.doubleValue == Double(Float(0.8)))

        result = try await fixture.cast("volume", "30%", "--member", "hall")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.hall.engineSnapshot?.deviceVolume.level == 0.3)
        #expect(fixture.kitchen.engineSnapshot?.deviceVolume.level == 0.4)

        result = try await fixture.cast("mute", "--member", "Kit")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.kitchen.engineSnapshot?.deviceVolume.muted == true)
        result = try await fixture.cast("group")
        #expect(result.stdout == "Kitchen\t40% muted\nHall\t30%\n")
        result = try await fixture.cast("unmute", "--member", "Kitchen")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.kitchen.engineSnapshot?.deviceVolume.muted == false)

        // Nothing was launched on the group or its members.
        #expect(fixture.group.engineSnapshot?.runningApplication == nil)

        result = try await fixture.cast("devices", "--timeout", "0.2", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let listed = try #require(devices.first { $0["port"] as? Int == fixture.group.ports?.cast })
        #expect(listed["name"] as? String == "Downstairs")
        #expect(listed["model"] as? String == "Google Cast Group")
        #expect(listed["group"] as? Bool == true)
    }

    @Test func playOnTheGroupPlaysOnEveryMember() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/song.mp3", "--content-type", "audio/mpeg")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("on Downstairs"), "\(result.stdout)")
        let now = fixture.group.engineNow
        #expect(fixture.group.engineSnapshot?.mediaStatus(at: now)?.playerState == .playing)
        for member in [fixture.kitchen, fixture.hall] {
            #expect(member.engineSnapshot?.runningApplication?.appID == "531A4F84")
        }
        result = try await fixture.cast("volume", "50%")
        #expect(result.status == 0, "\(result.stderr)")
        // The group's 0.6 becomes 0.5: each member scaled by 5/6.
        let kitchen = try #require(fixture.kitchen.engineSnapshot?.deviceVolume.level)
        #expect(abs(kitchen - 0.4 * 5 / 6) < 1e-9)
        result = try await fixture.cast("quit")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.hall.engineSnapshot?.runningApplication == nil)
    }

    @Test func statusOnAMemberFollowsTheGroupsMedia() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        let member = "\(fixture.kitchen.options.address):\(fixture.kitchen.ports?.cast ?? 0)"

        // Before the group plays, the member is idle.
        var result = try await fixture.cast(on: member, ["status", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["following"] == nil)
        #expect(json["media"] is NSNull)

        result = try await fixture.cast(
            "play",
            "https://media.invalid/song.mp3",
            "--content-type",
            "audio/mpeg",
            "--title",
            "Group song"
        )
        #expect(result.status == 0, "\(result.stderr)")

        result = try await fixture.cast(on: member, ["status", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let device = try #require(json["device"] as? [String: Any])
        #expect(device["name"] as? String == "Kitchen")
        let app = try #require(json["app"] as? [String: Any])
        #expect(app["appId"] as? String == "531A4F84")
        let following = try #require(json["following"] as? [String: Any])
        #expect(following["name"] as? String == "Downstairs")
        #expect(following["port"] as? Int == fixture.group.ports?.cast)
        let media = try #require(json["media"] as? [String: Any])
        #expect(media["playerState"] as? String == "PLAYING")
        #expect(media["contentId"] as? String == "https://media.invalid/song.mp3")
        #expect(media["title"] as? String == "Group song")
        // The member's own volume, not the group's mean.
        let volume = try #require(json["volume"] as? [String: Any])
        let level = try #require((volume["level"] as? NSNumber)?.doubleValue)
        #expect(abs(level - 0.4) < 1e-6)

        result = try await fixture.cast(on: member, ["status"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Group:   following Downstairs"), "\(result.stdout)")
        #expect(result.stdout.contains("State:   PLAYING"), "\(result.stdout)")
        // Asking the member launched nothing on it: it still follows the group.
        #expect(fixture.kitchen.engineSnapshot?.runningApplication?.appID == "531A4F84")
    }

    @Test func badMemberRequestsFailWithTheirCodes() async throws {
        let fixture = try await Fixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("volume", "30%", "--member", "Porch")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no member named 'Porch'"), "\(result.stderr)")
        result = try await fixture.cast("volume", "30%", "--member", "Hall", "--stream")
        #expect(result.status == 2)
        result = try await fixture.cast("mute", "--member", "")
        #expect(result.status == 2)
        result = try await fixture.cast("group", "extra")
        #expect(result.status == 2)
        #expect(fixture.hall.engineSnapshot?.deviceVolume.level == 0.8)
    }
}
