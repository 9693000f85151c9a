import CastTestSupport
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
        timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> Bool {
        // Each line the device appends wakes the wait.
        let seen = await FileChangeWatch.waitUntil(driver.path("device.log"), within: timeout) {
            deviceLog(driver).contains(where: predicate)
        }
        if seen { return true }
        Issue.record("the virtual device's log never showed \(what)", sourceLocation: sourceLocation)
        return false
    }

    static func launch(_ extraArguments: [String] = []) async throws -> TmuxDriver {
        let directory = try TmuxDriver.makeDirectory()
        let arguments = [
            "--config-dir", directory.appendingPathComponent("config").path,
            "--virtual-device-log", directory.appendingPathComponent("device.log").path,
            "--log", directory.appendingPathComponent("sdk.log").path,
        ]
        return try await TmuxDriver(arguments: arguments + extraArguments, directory: directory)
    }

    @Test(.timeLimit(.minutes(3)))
    func codelabFlowOnTheVirtualDevice() async throws {
        let driver = try await Self.launch()
        defer { driver.stop() }

        // Launch: the catalog, and the introductory overlay once the virtual device is known.
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }

        // Step 10: the Creds toggle, before the session so that LAUNCH carries the credentials.
        // The "Credentials: …" toast lasts four seconds of the app's clock, which a slow run can
        // miss between two captures; the status bar shows the setting for as long as it holds,
        // and the LAUNCH below must carry the value.
        try await driver.send("k")
        try await driver.waitFor(text: "Creds: on")

        // Step 5: the Cast button → first-use interstitial → device chooser → connect.
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Cast to a device")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[▣ Casting on Living Room TV (virtual)]")
        try await Self.waitForDeviceLog(driver, "LAUNCH with the launch credentials") {
            $0.contains(#""direction":"in""#) && $0.contains("LAUNCH") && $0.contains("id123")
        }

        // Step 6: detail → play → "Play Now" → expanded controller with title and advancing time.
        try await driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Play Item")
        try await driver.waitFor(text: "[ Play Now ]")
        try await driver.send("Enter")
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
        try await driver.send("Escape")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Escape")
        try await driver.waitFor("the mini controller on the list") {
            $0.contains("↑↓ select") && $0.contains("space pause · e expand") && $0.contains("▶ Harbour Lights")
        }
        try await driver.send("Space")
        let paused = try await driver.waitFor("the mini controller to show the device paused") {
            $0.contains("⏸ Harbour Lights") && $0.contains("Paused") && $0.contains("space play · e expand")
        }
        try await Self.waitForDeviceLog(driver, "PAUSE in and a PAUSED media status out") { line in
            line.contains(#""direction":"out""#) && line.contains("MEDIA_STATUS") && line.contains("PAUSED")
        }
        let pausedAt = paused.flatMap { Self.position(in: $0, lineContaining: "Paused") }
        #expect(pausedAt != nil)

        // Selecting the mini controller opens the expanded controller (mini controller hidden).
        try await driver.send("e")
        try await driver.waitFor("the expanded controller, paused, without the mini controller") {
            $0.contains("Now casting") && $0.contains("⏸ Paused") && !$0.contains("e expand")
        }
        try await driver.send("Escape")
        try await driver.waitFor(text: "space play · e expand")

        // Step 6: "Add to Queue" on a second video, then the queue screen.
        try await driver.send("Down")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Stop-motion astronauts")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[ Add to Queue ]")
        try await driver.send("Right", "Right", "Enter")
        // "Added to queue" is a four-second toast a starved screen poll can miss: the device's
        // log and the queue screen are what last.
        try await CastVideosAppTests.waitForDeviceLog(driver, "QUEUE_INSERT of Paper Orbit") {
            $0.contains("QUEUE_INSERT") && $0.contains("Paper Orbit")
        }
        try await driver.send("u")
        try await driver.waitFor("the queue with two items") {
            $0.contains("2 items") && $0.contains("1. Harbour Lights") && $0.contains("2. Paper Orbit")
        }
        try await driver.send("Escape")
        try await driver.waitFor(text: "Local player")

        // Stop casting: the session ends and local playback continues where the device was.
        try await driver.send("c")
        try await driver.waitFor(text: "[ Stop casting ]")
        try await driver.send("Enter")
        // The "The Casting session has ended." toast is not required here: it shows for six
        // seconds, and a loaded run may not capture the screen within them.
        let local = try await driver.waitFor("local playback of Harbour Lights, paused") {
            $0.contains("⏸ Local: Paused")
                && $0.contains("Harbour Lights")
                && $0.contains("[▭ Cast]")
        }
        let localAt = local.flatMap { Self.position(in: $0, lineContaining: "/ 10:12") }
        #expect(localAt != nil)
        #expect(localAt == pausedAt, "local playback resumes at the device's position")

        // The SDK's log (the codelab's logger filter and delegate) tells the whole flow, in order.
        let log = (try? String(contentsOf: driver.directory.appendingPathComponent("sdk.log"), encoding: .utf8)) ?? ""
        let flow = [
            "context created", "device added by address", "Cast button tapped", "device chosen", "launching app",
            "loading media", "media session started", "media command sent", "stop casting chosen",
        ]
        var searchFrom = log.startIndex
        for step in flow {
            guard let found = log.range(of: " - \(step)", range: searchFrom..<log.endIndex) else {
                Issue.record("the SDK log lacks “\(step)” after the steps before it:\n\(log.suffix(3000))")
                break
            }
            searchFrom = found.upperBound
        }
        #expect(log.contains("[info] CastSender/"), "lines as `[level] location: function - message`")

        // q quits and restores the terminal.
        try await driver.send("q")
        _ = await driver.waitForExit(within: .seconds(10))
        #expect(await !driver.isRunning, "the app quits on q")
    }

    @Test(.timeLimit(.minutes(1)))
    func unreadableCatalogShowsTheErrorScreenWithRetry() async throws {
        let driver = try await Self.launch(["--catalog", "/nonexistent/castvideos/catalog.json", "--no-virtual-device"])
        defer { driver.stop() }
        try await driver.waitFor(text: "Could not load the catalog")
        try await driver.waitFor(text: "no such file")
        try await driver.waitFor(text: "Press r to retry")
        try await driver.send("r")
        try await driver.waitFor(text: "Could not load the catalog")
        // The Cast button is on this screen too; with no device and discovery pinned to the
        // namespace's loopback, it says so.
        try await driver.waitFor(text: "[▭ Cast: no devices]")
        try await driver.send("q")
        _ = await driver.waitForExit(within: .seconds(10))
        #expect(await !driver.isRunning)
    }

    @Test(.timeLimit(.minutes(2)))
    func theChooserListsADeviceAdvertisingOnlyThePlainType() async throws {
        // python-zeroconf, in the app's namespace, advertises `_googlecast._tcp` with no app
        // subtype; the app runs without its built-in device.
        let name = "Plain Study \(Int.random(in: 1000...9999))"
        let directory = try TmuxDriver.makeDirectory()
        let companion = [
            RepositoryPaths.python,
            RepositoryPaths.root.appendingPathComponent("scripts/discovery/zeroconf_register.py").path,
            "--interface", "127.0.0.1", "--name", name, "--address", "127.0.0.1", "--port", "8009",
            "--txt", "id=\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())",
            "--txt", "fn=\(name)", "--txt", "md=Chromecast", "--txt", "ve=05", "--txt", "ca=4101", "--txt", "st=0",
            "--seconds", "120", "--ignore-stdin",
        ]
        let driver = try await TmuxDriver(
            arguments: ["--config-dir", directory.appendingPathComponent("config").path, "--no-virtual-device"],
            directory: directory,
            companion: companion
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        // Discovery starts with the first tap on the Cast button (as GCK's default).
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Cast to a device")
        try await driver.waitFor(text: name)
        try await driver.send("Escape")
        try await driver.waitFor(text: "[▭ Cast]")
    }

    @Test(.timeLimit(.minutes(2)))
    func aRefusedLaunchShowsTheFailedToStartAlert() async throws {
        let driver = try await Self.launch(["--virtual-device-fault", "refuse-launch"])
        defer { driver.stop() }
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Failed to start a session")
        try await Self.waitForDeviceLog(driver, "the refused LAUNCH") {
            $0.contains(#""direction":"out""#) && $0.contains("LAUNCH_ERROR")
        }
        try await driver.send("Enter")
        try await driver.waitFor("the alert closed and the Cast button available again") {
            !$0.contains("Failed to start a session") && $0.contains("[▭ Cast]")
        }
    }

    /// A catalog's strings reach the terminal only through the screen buffer's sanitizer:
    /// titles, subtitles and studios holding an OSC 52 clipboard write, an OSC title and C1
    /// controls show as text, and the raw bytes the terminal received hold none of them (the
    /// app's own escape sequences, colours and cursor moves, are all it sends).
    @Test(.timeLimit(.minutes(1)))
    func aHostileCatalogReachesTheTerminalSanitized() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let escapes = "\u{1B}]52;c;ZWNobyBwd25lZA==\u{07}\u{1B}]0;owned\u{07}\u{9B}31m\u{9D}x\u{9C}"
        func field(_ text: String) throws -> String {
            String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        }
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(
            #"""
            {"categories": [{"name": \#(try field("Cat" + escapes)), "mp4": "http://127.0.0.1:9/",
              "images": "http://127.0.0.1:9/", "videos": [
                {"title": \#(try field("Evil" + escapes + "Title")), "subtitle": \#(try field("Sub" + escapes)),
                 "description": \#(try field("Desc" + escapes)), "studio": \#(try field("Studio" + escapes)),
                 "duration": 60, "sources": [{"type": "mp4", "mime": "video/mp4", "url": "a.mp4"}]}]}]}
            """#.utf8
        ).write(to: catalog)
        let driver = try await TmuxDriver(
            arguments: ["--catalog", catalog.path, "--no-virtual-device", "--config-dir", directory.path],
            directory: directory,
            inShell: true,
            recordsOutput: true
        )
        defer { driver.stop() }
        // Each control character shows as one cell of `?`; the rest of a sequence is plain text.
        try await driver.waitFor(text: "Evil?")
        // The video's details: its other strings.
        try await driver.send("Enter")
        try await driver.waitFor("the details of the video") { $0.contains("Studio") || $0.contains("Desc") }
        let raw = driver.rawOutput()
        let text = String(decoding: raw, as: UTF8.self)
        #expect(!text.contains("\u{1B}]52") && !text.contains("\u{1B}]0;"))
        let c1 = text.unicodeScalars.filter { (0x80...0x9F).contains($0.value) }
        #expect(c1.isEmpty, "C1 controls reached the terminal: \(c1.map(\.value))")
        #expect(!raw.isEmpty)
    }

    /// What castvideos prints outside its screen (here a theme file named with escapes that
    /// does not exist) goes through the same sanitizer: no ESC or C1 on standard error.
    @Test(.timeLimit(.minutes(1)))
    func anErrorNamingAHostileFileIsSanitized() async throws {
        let binary = try #require(TmuxDriver.appBinary())
        let path = "/nonexistent/theme\u{1B}]52;c;eA==\u{07}\u{9B}31m.json"
        let result = try await runProgram(binary, ["--theme", path, "--no-virtual-device"], deadline: .seconds(30))
        #expect(result.status == 2)
        #expect(result.output.contains("castvideos: theme /nonexistent/theme"), "\(result.output)")
        let controls = result.output.unicodeScalars.filter { $0.value == 0x1B || (0x80...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(result.output.debugDescription)")
    }

    @Test(.timeLimit(.minutes(1)))
    func malformedCatalogNamesTheByteOffset() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let catalog = directory.appendingPathComponent("catalog.json")
        try Data(#"{"categories": [ {"name": "x", "videos": [ }"#.utf8).write(to: catalog)
        let driver = try await TmuxDriver(
            arguments: ["--catalog", catalog.path, "--no-virtual-device", "--config-dir", directory.path],
            directory: directory
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Could not load the catalog")
        try await driver.waitFor(text: "not valid JSON at byte")
    }
}

/// Local playback moving to the device, the theme, settings, and what is remembered between
/// launches.
@Suite(.serialized)
struct CastVideosAppSecondLaunchTests {
    @Test(.timeLimit(.minutes(3)))
    func localPlaybackMovesToTheDeviceThemeAndSettings() async throws {
        let shared = try TmuxDriver.makeDirectory()
        defer { try? FileManager.default.removeItem(at: shared) }
        let config = shared.appendingPathComponent("config")
        let theme = shared.appendingPathComponent("theme.json")
        try Data(
            #"""
            {"version": 1, "castViews": {"iconTintColor": "#FFB000",
              "mediaControl": {"miniController": {"backgroundColor": "#203040"}}}}
            """#.utf8
        ).write(to: theme)

        let directory = try TmuxDriver.makeDirectory()
        let driver = try await TmuxDriver(
            arguments: [
                "--config-dir", config.path, "--theme", theme.path,
                "--virtual-device-log", directory.appendingPathComponent("device.log").path,
            ],
            directory: directory
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        // The theme's icon tint colours the Cast button (24-bit colour).
        let styled = try await driver.captureWithStyles()
        #expect(
            styled.contains("38;2;255;176;0"),
            "the Cast button has the theme's tint: \(styled.prefix(400).debugDescription)"
        )

        // Local playback first, then connect: the device continues at the local position.
        try await driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Enter")
        try await driver.waitFor(text: "▶ Local: Playing")
        try await driver.send("Right", "Right", "Right")
        try await driver.waitFor("the local position past 30 s") {
            (CastVideosAppTests.position(in: $0, lineContaining: "/ 10:12") ?? 0) >= 30
        }
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try await driver.send("Enter")
        // The load that moves playback to the device brings up the expanded controller (the
        // context's default expanded controls); back from it, the detail screen says where
        // the video plays.
        try await driver.waitFor(text: "Now casting")
        try await driver.send("Escape")
        try await driver.waitFor(text: "▣ Playing on Living Room TV (virtual)")
        try await driver.waitFor("the mini controller past 30 s") {
            (CastVideosAppTests.position(in: $0, lineContaining: "▶ Harbour Lights —") ?? 0) >= 30
        }
        try await CastVideosAppTests.waitForDeviceLog(driver, "LOAD at the local position") { line in
            guard line.contains(#""direction":"in""#), line.contains("LOAD"),
                let match = line.firstMatch(of: /currentTime\\":(\d+)/)
            else { return false }
            return Int(match.1)! >= 30
        }
        #expect(
            try await driver.captureWithStyles().contains("48;2;32;48;64"),
            "the mini controller has the theme's background"
        )

        // The queue: Add to Queue, Play Next, then reorder, remove and jump.
        try await driver.send("Escape")
        try await driver.waitFor(text: "↑↓ select")
        try await driver.send("Down", "Enter")
        try await driver.waitFor(text: "Stop-motion astronauts")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[ Add to Queue ]")
        try await driver.send("Right", "Right", "Enter")
        // "Added to queue" is a four-second toast a starved screen poll can miss: the device's
        // log and the queue screen are what last.
        try await CastVideosAppTests.waitForDeviceLog(driver, "QUEUE_INSERT of Paper Orbit") {
            $0.contains("QUEUE_INSERT") && $0.contains("Paper Orbit")
        }
        try await driver.send("Escape")
        // A key sent before the app read the Escape would arrive with it as Alt plus the key.
        try await driver.waitFor(text: "↑↓ select")
        try await driver.send("Down", "Enter")
        try await driver.waitFor(text: "One route, one driver")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[ Play Next ]")
        try await driver.send("Right", "Enter")
        // "Playing next" is a four-second toast a starved screen poll can miss: the device's
        // log and the queue screen below are what last.
        try await CastVideosAppTests.waitForDeviceLog(driver, "QUEUE_INSERT of The Last Tram") {
            $0.contains("QUEUE_INSERT") && $0.contains("The Last Tram")
        }
        try await driver.send("u")
        try await driver.waitFor("the queue in insertion order") {
            $0.contains("3 items") && $0.contains("1. Harbour Lights") && $0.contains("2. The Last Tram")
                && $0.contains("3. Paper Orbit")
        }
        try await driver.send("Down", "]")
        try await driver.waitFor("The Last Tram moved down") {
            $0.contains("2. Paper Orbit") && $0.contains("3. The Last Tram")
        }
        try await driver.send("d")
        try await driver.waitFor("The Last Tram removed") {
            $0.contains("2 items") && !$0.contains("The Last Tram")
        }
        try await driver.send("Up", "Down", "Enter")
        try await driver.waitFor(text: "▶ 2. Paper Orbit")
        try await CastVideosAppTests.waitForDeviceLog(driver, "QUEUE_REORDER, QUEUE_REMOVE and a jump") { _ in
            let log = CastVideosAppTests.deviceLog(driver).joined(separator: "\n")
            return log.contains("QUEUE_REORDER") && log.contains("QUEUE_REMOVE") && log.contains("currentItemId")
        }

        // Settings: change the preload time; it is saved.
        try await driver.send("Escape")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Escape")
        try await driver.waitFor(text: "↑↓ select")
        try await driver.send("s")
        try await driver.waitFor(text: "Preload time (s)")
        try await driver.send("Down", "Enter")
        try await driver.waitFor(text: "⏎ save  esc cancel")
        try await driver.send("BSpace", "BSpace", "BSpace", "BSpace", "4", "5", "Enter")
        try await driver.waitFor(text: "Preload time (s): 45")
        let saved = try String(contentsOf: config.appendingPathComponent("settings.json"), encoding: .utf8)
        #expect(saved.contains(#""preloadTime" : 45"#), "\(saved)")
        try await driver.send("Escape")
        try await driver.waitFor("the settings to close") { !$0.contains("Preload time (s)") }
        try await driver.send("q")
        _ = await driver.waitForExit(within: .seconds(30))
        #expect(await !driver.isRunning)
        driver.stop()

        // Second launch with the same configuration: the session quit while casting is
        // resumed on the built-in device (same address and port, its app kept), with no overlay
        // and no interstitial.
        let again = try await TmuxDriver(
            arguments: ["--config-dir", config.path],
            directory: try TmuxDriver.makeDirectory()
        )
        defer { again.stop() }
        try await again.waitFor(text: "[▣ Casting on Living Room TV (virtual)]")
        try await again.waitFor("the resumed queue in the mini controller") {
            $0.contains("Paper Orbit") && $0.contains("space pause · e expand")
        }
        #expect(!(try await again.capture()).contains("Touch to cast media"), "the overlay shows only once")
        try await again.send("c")
        try await again.waitFor(text: "Stop casting")
        try await again.send("Enter")
        // "The Casting session has ended." is a six-second toast: the Cast button is what lasts.
        try await again.waitFor("the Cast button idle") { $0.contains("[▭ Cast]") && !$0.contains("Stop casting") }
        // The button goes idle before the session's end is reported: a chooser opened in
        // between stays open when the end arrives.
        try await again.send("c")
        try await again.waitFor(text: "Cast to a device")
        #expect(!again.lastScreen.contains("Allow local network access"))
        try await again.send("Escape")
        try await again.waitFor("the chooser to close") { !$0.contains("Cast to a device") }
        try await again.send("s")
        try await again.waitFor(text: "45")
    }

    @Test(.timeLimit(.minutes(1)))
    func anInvalidThemeStopsBeforeTakingTheTerminal() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let theme = directory.appendingPathComponent("bad-theme.json")
        try Data(##"{"castViews": {"iconTintColour": "#FFFFFF"}}"##.utf8).write(to: theme)
        let stderr = directory.appendingPathComponent("stderr.txt")
        let driver = try await TmuxDriver(
            arguments: ["--theme", theme.path, "--no-virtual-device", "--config-dir", directory.path],
            directory: directory
        )
        defer { driver.stop() }
        _ = await FileChangeWatch.waitUntil(stderr.path, within: .seconds(15)) {
            ((try? String(contentsOf: stderr, encoding: .utf8)) ?? "").contains("bad-theme.json")
        }
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(message.contains("bad-theme.json"), "stderr: \(message)")
        #expect(message.contains("iconTintColour"), "stderr: \(message)")
    }
}
