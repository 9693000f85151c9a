import Foundation
import Testing

@testable import CastCommandLine

@Suite struct ValueParsingTests {
    @Test(arguments: [
        ("90", 90.0, false), ("90.5", 90.5, false), ("1:30", 90, false), ("01:02:03", 3723, false),
        ("+10", 10, true), ("-10", -10, true), ("-1:00", -60, true), ("0", 0, false),
    ])
    func seekTargets(text: String, seconds: Double, relative: Bool) throws {
        let target = try #require(SeekTarget(text))
        #expect(target.seconds == seconds)
        #expect(target.isRelative == relative)
    }

    @Test(arguments: ["", "soon", "1:60", "1:2:3:4", "::", "+", "1.5:00", "-", "1e3", "nan"])
    func badSeekTargets(text: String) {
        #expect(SeekTarget(text) == nil)
    }

    @Test(arguments: [("0.4", 0.4), ("40%", 0.4), ("0", 0), ("1", 1), ("100%", 1)])
    func volumeLevels(text: String, fraction: Double) {
        #expect(VolumeLevel(text)?.fraction == fraction)
    }

    @Test(arguments: ["1.5", "-0.1", "101%", "loud", "%"])
    func badVolumeLevels(text: String) {
        #expect(VolumeLevel(text) == nil)
    }

    @Test(arguments: [
        ("192.168.1.30", DeviceTarget.address(host: "192.168.1.30", port: 8009)),
        ("127.0.0.2:8010", .address(host: "127.0.0.2", port: 8010)),
        ("[::1]:9000", .address(host: "::1", port: 9000)),
        ("fe80::1", .address(host: "fe80::1", port: 8009)),
        ("tv.local:8009", .address(host: "tv.local", port: 8009)),
        ("Living Room", .name("Living Room")),
        ("Kitchen:Speaker", .name("Kitchen:Speaker")),
        ("localhost", .address(host: "127.0.0.1", port: 8009)),
    ])
    func deviceTargets(text: String, target: DeviceTarget) {
        #expect(DeviceTarget(text) == target)
    }

    @Test func configurationFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cast-config-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        #expect(try CommandConfiguration(contentsOf: file) == CommandConfiguration())
        try Data(#"{"device":"Den","interfaces":["eth0"]}"#.utf8).write(to: file)
        #expect(try CommandConfiguration(contentsOf: file) == CommandConfiguration(device: "Den", interfaces: ["eth0"]))
        for bad in ["[]", "{", #"{"device":3}"#, #"{"interfaces":"eth0"}"#] {
            try Data(bad.utf8).write(to: file)
            #expect(throws: CommandLineError.self) { try CommandConfiguration(contentsOf: file) }
        }
    }

    @Test func pathsFollowXDGAndOverrides() {
        var paths = CommandPaths(environment: ["HOME": "/home/u"])
        #expect(paths.configFile.path == "/home/u/.config/cast/config.json")
        #expect(paths.sessionFile.path == "/home/u/.local/state/cast/session.json")
        paths = CommandPaths(environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"])
        #expect(paths.configFile.path == "/cfg/cast/config.json")
        #expect(paths.sessionFile.path == "/st/cast/session.json")
        paths = CommandPaths(environment: ["HOME": "/home/u", "CAST_STATE_DIR": "/tmp/s"])
        #expect(paths.sessionFile.path == "/tmp/s/session.json")
    }
}
