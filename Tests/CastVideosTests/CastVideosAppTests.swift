import Foundation
import Testing

/// The app driven in tmux, step by step as in the codelab, against its built-in virtual device,
/// inside a loopback-only network namespace.
@Suite(.serialized)
struct CastVideosAppTests {
    /// Seconds in the first `m:ss / total` (or `mm:ss / total`) on a line containing `marker`.
    static func position(in screen: String, lineContaining marker: String) -> Int? {
        guard let line = screen.split(separator: "\n").first(where: { $0.contains(marker) }) else { return nil }
        guard let match = line.firstMatch(of: /(\d+):(\d\d) \/ \d+:\d\d/) else { return nil }
        return Int(match.1)! * 60 + Int(match.2)!
    }

    static func deviceLog(_ driver: TmuxDriver) -> [String] {
        let text = (try? String(contentsOfFile: driver.path("device.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits until a line of the virtual device's frame log satisfies `predicate`.
    @discardableResult
    static func waitForDeviceLog(
        _ driver: TmuxDriver,
        _ what: String,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if deviceLog(driver).contains(where: predicate) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the virtual device's log never showed \(what)", sourceLocation: sourceLocation)
        return false
    }

    static func launch(_ extraArguments: [String] = []) throws -> TmuxDriver {
        let directory = try TmuxDriver.makeDirectory()
        let arguments = [
            "--config-dir", directory.appendingPathComponent("config").path,
            "--virtual-device-log", directory.appendingPathComponent("device.log").path,
            "--log", directory.appendingPathComponent("sdk.log").path,
        ]
        return try TmuxDriver(arguments: arguments + extraArguments, directory: directory)
    }

    @Test(.timeLimit(.minutes(3)))
    func codelabFlowOnTheVirtualDevice() async throws {
        let driver = try Self.launch()
        defer { driver.stop() }

        // Launch: the catalog, and the introductory overlay once the virtual device is known.
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.waitFor(text: "Touch to cast media")
        try driver.send("Enter")
        try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }

        // Step 10: the Creds toggle, before the session so that LAUNCH carries the credentials.
        try driver.send("k")
        try await driver.waitFor(text: #"Credentials: {"userId":"id123"}"#)
        try await driver.waitFor(text: "Creds: on")

        // Step 5: the Cast button → first-use interstitial → device chooser → connect.
        try driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try driver.send("Enter")
        try await driver.waitFor(text: "Cast to a device")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try driver.send("Enter")
        try await driver.waitFor(text: "[▣ Casting on Living Room TV (virtual)]", timeout: .seconds(20))
        try await Self.waitForDeviceLog(driver, "LAUNCH with the launch credentials") {
            $0.contains(#""direction":"in""#) && $0.contains("LAUNCH") && $0.contains("id123")
        }

        // Step 6: detail → play → "Play Now" → expanded controller with title and advancing time.
        try driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        try driver.send("Enter")
        try await driver.waitFor(text: "Play Item")
        try await driver.waitFor(text: "[ Play Now ]")
        try driver.send("Enter")
        try await driver.waitFor(text: "Now casting")
        let playing = try await driver.waitFor("the expanded controller playing Harbour Lights") {
            $0.contains("Harbour Lights") && $0.contains("▶ Playing")
                && Self.position(in: $0, lineContaining: "/ 10:12") != nil
        }
        let first = playing.flatMap { Self.position(in: $0, lineContaining: "/ 10:12") } ?? 0
        try await driver.waitFor("the position to advance past \(first) s") {
            (Self.position(in: $0, lineContaining: "/ 10:12") ?? 0) >= first + 2
        }
        try await Self.waitForDeviceLog(driver, "LOAD with the load credentials") {
            $0.contains(#""direction":"in""#) && $0.contains("LOAD") && $0.contains("credentials")
                && $0.contains("id123")
        }

        // Step 7: back to the list; the mini controller is docked and pauses the device.
        try driver.send("Escape")
        try await driver.waitFor(text: "Local player")
        try driver.send("Escape")
        try await driver.waitFor("the mini controller on the list") {
            $0.contains("Counting Stars") && $0.contains("space pause · e expand") && $0.contains("▶ Harbour Lights")
        }
        try driver.send("Space")
        let paused = try await driver.waitFor("the mini controller to show the device paused") {
            $0.contains("⏸ Harbour Lights") && $0.contains("Paused") && $0.contains("space play · e expand")
        }
        try await Self.waitForDeviceLog(driver, "PAUSE in and a PAUSED media status out") { line in
            line.contains(#""direction":"out""#) && line.contains("MEDIA_STATUS") && line.contains("PAUSED")
        }
        let pausedAt = paused.flatMap { Self.position(in: $0, lineContaining: "Paused") }
        #expect(pausedAt != nil)

        // Step 6: "Add to Queue" on a second video, then the queue screen.
        try driver.send("Down")
        try driver.send("Enter")
        try await driver.waitFor(text: "Stop-motion astronauts")
        try driver.send("Enter")
        try await driver.waitFor(text: "[ Add to Queue ]")
        try driver.send("Right", "Right", "Enter")
        try await driver.waitFor(text: "Added to queue: Paper Orbit")
        try driver.send("u")
        try await driver.waitFor("the queue with two items") {
            $0.contains("2 items") && $0.contains("1. Harbour Lights") && $0.contains("2. Paper Orbit")
        }
        try driver.send("Escape")
        try await driver.waitFor(text: "Local player")

        // Stop casting: the session ends and local playback continues where the device was.
        try driver.send("c")
        try await driver.waitFor(text: "[ Stop casting ]")
        try driver.send("Enter")
        let local = try await driver.waitFor("local playback of Harbour Lights, paused") {
            $0.contains("The Casting session has ended.") && $0.contains("⏸ Local: Paused")
                && $0.contains("Harbour Lights")
                && $0.contains("[▭ Cast]")
        }
        let localAt = local.flatMap { Self.position(in: $0, lineContaining: "/ 10:12") }
        #expect(localAt != nil)
        #expect(localAt == pausedAt, "local playback resumes at the device's position")

        // q quits and restores the terminal.
        try driver.send("q")
        let end = ContinuousClock.now + .seconds(10)
        while driver.isRunning, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!driver.isRunning, "the app quits on q")
    }

    @Test(.timeLimit(.minutes(1)))
    func unreadableCatalogShowsTheErrorScreenWithRetry() async throws {
        let driver = try Self.launch(["--catalog", "/nonexistent/castvideos/catalog.json", "--no-virtual-device"])
        defer { driver.stop() }
        try await driver.waitFor(text: "Could not load the catalog")
        try await driver.waitFor(text: "no such file")
        try await driver.waitFor(text: "Press r to retry")
        try driver.send("r")
        try await driver.waitFor(text: "Could not load the catalog")
        // The Cast button is on this screen too; with no device and discovery pinned to the
        // namespace's loopback, it says so.
        try await driver.waitFor(text: "[▭ Cast: no devices]")
        try driver.send("q")
        let end = ContinuousClock.now + .seconds(10)
        while driver.isRunning, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!driver.isRunning)
    }

    @Test(.timeLimit(.minutes(1)))
    func malformedCatalogNamesTheByteOffset() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(#"{"categories": [ {"name": "x", "videos": [ }"#.utf8).write(to: catalog)
        let driver = try TmuxDriver(
            arguments: ["--catalog", catalog.path, "--no-virtual-device", "--config-dir", directory.path],
            directory: directory
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Could not load the catalog")
        try await driver.waitFor(text: "not valid JSON at byte")
    }
}
