import CastCore
import CastEmulator
import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

/// Choosing the device: by name through discovery (mDNS confined to loopback), from the
/// configuration file and from `CAST_DEVICE`; and `status --watch` following playback.
@Suite("cast device choice and watch")
struct DeviceChoiceTests {
    /// How long `cast devices` listens: the responders answer from this loaded test process,
    /// and a listing ends only when its window does, so the window is generous.
    static let listening = String(Int(TestTiming.scaled(10.0)))

    @Test func nameFromDiscoveryConfigFileAndEnvironment() async throws {
        let name = "Choice \(UInt32.random(in: 1000...9999)) Room"
        let fixture = try await DeviceFixture.start(name: name, address: "127.0.0.1")
        defer { Task { await fixture.stop() } }
        let responder = try MDNSResponder(interfaceNames: ["lo"], usesIPv4: true, usesIPv6: false)
        defer { responder.shutdown() }
        let id = UUID()
        let advertised = CastDevice(
            id: id,
            friendlyName: name,
            modelName: "Chromecast",
            port: UInt16(fixture.ports.cast)
        )
        _ = responder.register(MDNSService(castDevice: advertised, applicationIDs: ["CC1AD845"]))

        var environment = fixture.environment
        environment["CAST_DISCOVERY_INTERFACES"] = "lo"
        // A case-insensitive prefix of the friendly name.
        let prefix = String(name.lowercased().dropLast(5))
        var result = try await CastProcess.run(
            ["-d", prefix, "play", "https://media.invalid/a.mp4"],
            environment: environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "LOAD").count == 1)

        // --interface instead of the environment variable.
        var withoutVariable = environment
        withoutVariable["CAST_DISCOVERY_INTERFACES"] = nil
        result = try await CastProcess.run(
            ["devices", "--interface", "lo", "--timeout", Self.listening, "--json"],
            environment: withoutVariable
        )
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(devices.contains { $0["name"] as? String == name && $0["port"] as? Int == fixture.ports.cast })

        // The configuration file's device, with a fresh state directory (nothing saved).
        let configDirectory = fixture.stateDirectory.appendingPathComponent("config/cast")
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        try Data(#"{"device": "\#(fixture.target)"}"#.utf8).write(
            to: configDirectory.appendingPathComponent("config.json")
        )
        environment["CAST_STATE_DIR"] = fixture.stateDirectory.appendingPathComponent("fresh1").path
        result = try await CastProcess.run(["pause"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PAUSED")

        // CAST_DEVICE wins over the configuration file.
        try Data(#"{"device": "127.0.0.1:1"}"#.utf8).write(to: configDirectory.appendingPathComponent("config.json"))
        environment["CAST_STATE_DIR"] = fixture.stateDirectory.appendingPathComponent("fresh2").path
        environment["CAST_DEVICE"] = fixture.target
        result = try await CastProcess.run(["resume"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PLAYING")
        #expect(fixture.frames.inbound(type: "LAUNCH").count == 1)

        // A malformed configuration file is reported, not ignored.
        try Data("{".utf8).write(to: configDirectory.appendingPathComponent("config.json"))
        environment["CAST_DEVICE"] = nil
        result = try await CastProcess.run(["status"], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains("config.json: not a JSON object"))
    }

    @Test func aDeviceAdvertisingOnlyThePlainTypeIsListedAndChosenByName() async throws {
        let name = "Plain \(UInt32.random(in: 1000...9999)) Hall"
        let fixture = try await DeviceFixture.start(name: name)
        defer { Task { await fixture.stop() } }
        // python-zeroconf advertises `_googlecast._tcp` with no app subtype, pointing at the
        // virtual device (multicast on 127.0.0.1 only).
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let service = try await ZeroconfService.register(
            name: name,
            address: fixture.address,
            port: fixture.ports.cast,
            txt: ["id=\(id)", "fn=\(name)", "md=Chromecast", "ve=05", "ca=4101", "st=0"]
        )
        defer { Task { await service.stop() } }
        var result = try await CastProcess.run(
            ["devices", "--timeout", Self.listening, "--json"],
            environment: fixture.environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let listed = try #require(devices.first { $0["name"] as? String == name }, "\(result.stdout)")
        #expect(listed["id"] as? String == id)
        #expect(listed["host"] as? String == fixture.address)
        #expect(listed["port"] as? Int == fixture.ports.cast)
        result = try await CastProcess.run(
            ["-d", String(name.prefix(10)), "play", "https://media.invalid/plain.mp4"],
            environment: fixture.environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "LOAD").count == 1)
    }

    @Test func aDeviceReachedByAddressShowsItsFriendlyName() async throws {
        let name = "Named \(UInt32.random(in: 1000...9999)) Den"
        // The setup document is read where senders read it, port 8008 of the device's
        // address: a few random loopback addresses are tried in case one is taken.
        var started: DeviceFixture?
        for _ in 0..<3 where started == nil {
            started = try? await DeviceFixture.start(name: name, setupPort: 8008)
        }
        let fixture = try #require(started, "no free 127.0.0.x:8008")
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("status")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Device:  \(name) (\(fixture.target))"), "\(result.stdout)")
        result = try await fixture.cast("devices", "--timeout", "1", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let device = try #require(devices.first { $0["host"] as? String == fixture.address }, "\(result.stdout)")
        #expect(device["name"] as? String == name)
        #expect(device["id"] as? String == fixture.device.configuration.identity.deviceID)
        #expect(device["model"] as? String == "Chromecast")
        // A session names the device too (the play command's confirmation and errors).
        result = try await fixture.cast("play", "https://media.invalid/named.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await fixture.cast("status", "--json")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((status["device"] as? [String: Any])?["name"] as? String == name, "\(result.stdout)")
    }

    @Test func statusWatchFollowsPlaybackToTheEnd() async throws {
        let fixture = try await DeviceFixture.start(mediaDuration: 600)
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/short.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        // The watch runs while the media plays; once it shows progress, a seek close to the end
        // lets playback finish. No fixed media length, so a slow machine cannot miss the window.
        let watch = try CastProcess.start(
            ["-d", fixture.target, "status", "--watch"],
            environment: fixture.environment
        )
        _ = await FileChangeWatch.waitUntil(watch.stdoutURL.path, within: .seconds(60)) {
            watch.stdout.contains("PLAYING ") || !watch.process.isRunning
        }
        result = try await fixture.cast("seek", "9:57")
        #expect(result.status == 0, "\(result.stderr)")
        result = await watch.finish(within: TestTiming.scaled(60))
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("PLAYING ") && $0.contains("/ 10:00") }, "\(lines)")
        #expect(lines.last?.hasPrefix("IDLE") == true, "\(lines)")

        result = try await fixture.cast("status", "--json")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((status["media"] as? [String: Any])?["idleReason"] as? String == "FINISHED")

        // Watching media that already ended reports it once and returns instead of waiting
        // (killed at the deadline otherwise, which fails the status check).
        result = try await fixture.cast("status", "--watch", timeout: TestTiming.scaled(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("IDLE"), "\(result.stdout)")
    }
}
