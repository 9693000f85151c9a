import CastAuth
import CastTestSupport
import Foundation
import Testing

/// castvideos on a speaker group, driven in tmux: `cast-emulator` runs two speakers and their
/// group in the app's loopback-only network namespace, advertised over mDNS there; the app
/// finds the group, casts to it, and its expanded controller shows the group volume and one
/// slider per member, which the keys move.
@Suite(.serialized)
struct CastVideosSpeakerGroupTests {
    /// The emulator's devices: Kitchen (40 %) and Hall (80 %), grouped as Downstairs.
    static let fleet = """
        {"mdns": true,
         "devices": [
           {"name": "Kitchen", "model": "Google Nest Mini", "address": "127.0.0.2", "volume": 0.4,
            "media": "simulate"},
           {"name": "Hall", "model": "Google Home", "address": "127.0.0.3", "volume": 0.8,
            "media": "simulate"}],
         "groups": [{"name": "Downstairs", "members": ["Kitchen", "Hall"]}]}
        """

    /// The `level` of every `DEVICE_UPDATED` the group sent about `member`, in order.
    static func reportedLevels(of member: String, in log: URL) -> [Double] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> Double? in
            guard line.contains("DEVICE_UPDATED"),
                let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                record["direction"] as? String == "out", record["device"] as? String == "Downstairs",
                let payload = (record["payload"] as? String).map({ Data($0.utf8) }),
                let message = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
                let device = message["device"] as? [String: Any], device["name"] as? String == member,
                let volume = device["volume"] as? [String: Any]
            else { return nil }
            return (volume["level"] as? NSNumber)?.doubleValue
        }
    }

    @Test(.timeLimit(.minutes(4)))
    func theExpandedControllerSetsOneMembersVolume() async throws {
        guard let emulator = RepositoryPaths.builtExecutable("cast-emulator", overriddenBy: "CAST_EMULATOR_BINARY")
        else {
            Issue.record("cast-emulator is not built")
            return
        }
        let directory = try TmuxDriver.makeDirectory()
        let config = directory.appendingPathComponent("fleet.json")
        try Data(Self.fleet.utf8).write(to: config)
        // The devices sign with a chain made here, whose root the app trusts from its start.
        let chain = directory.appendingPathComponent("chain")
        try DeviceAuthChain.generate().write(directory: chain.path)
        let root = chain.appendingPathComponent("root.pem")
        let log = directory.appendingPathComponent("emulator.log")
        let driver = try await TmuxDriver(
            arguments: [
                "--config-dir", directory.appendingPathComponent("config").path, "--no-virtual-device",
                "--trust-root", root.path, "--log", directory.appendingPathComponent("sdk.log").path,
            ],
            directory: directory,
            height: 40,
            companion: [emulator, "--config", config.path, "--auth-chain", chain.path, "--log=\(log.path)"]
        )
        defer { driver.stop() }

        // The chooser lists the group as a group; casting to it plays on both speakers.
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Downstairs (speaker group")
        try await driver.waitFor(text: "Hall")
        try await driver.waitFor(text: "Kitchen")
        let chooser = try await driver.capture()
        let rows = chooser.split(separator: "\n").map(String.init)
        let groupRow = try #require(rows.firstIndex { $0.contains("Downstairs (speaker group") })
        let selectedRow = try #require(rows.firstIndex { $0.contains("› ▭") || $0.contains("> ▭") })
        for _ in 0..<abs(groupRow - selectedRow) { try await driver.send(groupRow > selectedRow ? "Down" : "Up") }
        try await driver.send("Enter")
        try await driver.waitFor(text: "[▣ Casting on Downstairs]")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[ Play Now ]")
        try await driver.send("Enter")

        // The expanded controller: the group volume and a slider per member.
        try await driver.waitFor("the expanded controller on the group") {
            $0.contains("Now casting") && $0.contains("Casting on Downstairs") && $0.contains("▶ Playing")
        }
        try await driver.waitFor(text: "Group Volume ▮▮▮▮▮▮▯▯▯▯ 60%")
        try await driver.waitFor(text: "Members (1-2: choose, 0: the group; +/- m act on the group):")
        try await driver.waitFor(text: " 1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%")
        try await driver.waitFor(text: " 2 Hall    ▮▮▮▮▮▮▮▮▯▯ 80%")

        // 2 chooses Hall; two steps down move only its slider, and Hall reports the level.
        try await driver.send("2")
        try await driver.waitFor(text: "▸2 Hall    ▮▮▮▮▮▮▮▮▯▯ 80%")
        try await driver.waitFor(text: "+/- m act on it")
        try await driver.sendLiteral("-")
        try await driver.waitFor(text: "▸2 Hall    ▮▮▮▮▮▮▮▮▯▯ 75%")
        try await driver.sendLiteral("-")
        let moved = try await driver.waitFor(text: "▸2 Hall    ▮▮▮▮▮▮▮▯▯▯ 70%")
        #expect(moved?.contains(" 1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%") == true, "the other member keeps its level")
        // Each line the emulator logs wakes the wait.
        _ = await FileChangeWatch.waitUntil(log.path, within: .seconds(15)) {
            Self.reportedLevels(of: "Hall", in: log).last.map { abs($0 - 0.7) < 1e-6 } == true
        }
        let levels = Self.reportedLevels(of: "Hall", in: log)
        #expect(levels.last.map { abs($0 - 0.7) < 1e-6 } == true, "Hall reported 70 %: \(levels)")
        #expect(Self.reportedLevels(of: "Kitchen", in: log).isEmpty, "Kitchen was not touched")

        // m mutes the chosen member; 0 goes back to the group, whose volume follows Hall's.
        try await driver.send("m")
        try await driver.waitFor(text: "▸2 Hall    ▮▮▮▮▮▮▮▯▯▯ 70% (muted)")
        try await driver.send("0")
        try await driver.waitFor(text: "+/- m act on the group")
        try await driver.waitFor("no member chosen") { !$0.contains("▸2 Hall") }
    }
}
