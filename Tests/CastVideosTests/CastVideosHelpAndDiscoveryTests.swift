import CastTestSupport
import Foundation
import Testing

/// Two things found by running the app as a new user: the `?` key list cut its longest lines
/// at 120 and 80 columns, and when discovery could not start the chooser said only "discovery
/// off" (the reason was in the log). Both driven in tmux as they were found.
@Suite(.serialized)
struct CastVideosHelpAndDiscoveryTests {
    @Test(.timeLimit(.minutes(3)), arguments: [120, 80])
    func theKeyListShowsEveryLineWhole(width: Int) async throws {
        let directory = try TmuxDriver.makeDirectory()
        let driver = try await TmuxDriver(
            arguments: ["--config-dir", directory.appendingPathComponent("config").path, "--no-virtual-device"],
            directory: directory,
            width: width,
            height: 40
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.send("?")
        let screen = try #require(await driver.waitFor(text: "Press any key to close"))
        // Each description, wrapped in the box, reads whole when its lines are joined.
        let inside = screen.split(separator: "\n").compactMap { line -> String? in
            guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"), open < close else {
                return nil
            }
            return String(line[line.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
        }
        let text = inside.joined(separator: " ").split(separator: " ").joined(separator: " ")
        for description in [
            "volume up, down, mute (the device's while casting)",
            "suspend to the shell (fg comes back)",
            "skip the ad once it can be skipped (expanded controller)",
            "custom channel: messages to the receiver app",
        ] {
            #expect(text.contains(description), "at \(width) columns: \(description)\n\(screen)")
        }
        try await driver.send("Escape")
    }

    @Test(.timeLimit(.minutes(3)))
    func theChooserSaysWhyDiscoveryIsOff() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let driver = try await TmuxDriver(
            arguments: [
                "--config-dir", directory.appendingPathComponent("config").path,
                "--log", directory.appendingPathComponent("sdk.log").path,
            ],
            directory: directory,
            environment: ["CAST_DISCOVERY_INTERFACES": "nosuchif0"]
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        let chooser = try #require(await driver.waitFor(text: "Discovery could not start:"))
        #expect(chooser.contains("nosuchif0"), "the reason names the interface\n\(chooser)")
        #expect(!chooser.contains("Known devices only (discovery off)"))
        // The built-in device is still offered: it is known by address.
        try await driver.waitFor(text: "Living Room TV (virtual)")
    }

    /// The graphics query goes through tmux: the app asks at start and tmux answers, so the
    /// settings screen says what was declared, not that nothing answered.
    @Test(.timeLimit(.minutes(3)))
    func theSettingsSayHowPicturesAreDrawnAndWhy() async throws {
        let directory = try TmuxDriver.makeDirectory()
        let driver = try await TmuxDriver(
            arguments: ["--config-dir", directory.appendingPathComponent("config").path, "--no-virtual-device"],
            directory: directory,
            width: 120,
            height: 40
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.send("s")
        let settings = try #require(await driver.waitFor(text: "Pictures: "))
        let line = try #require(settings.split(separator: "\n").first { $0.contains("Pictures: ") })
        #expect(
            line.contains("half blocks in 24-bit colour (no graphics protocol declared)")
                || line.contains("sixel (DA1 lists sixel)"),
            "\(line)"
        )
        #expect(settings.contains("Image picker (best-fit), by place, for “Harbour Lights”:"))
        #expect(settings.contains("List") && settings.contains("listThumbnail 160×90") && settings.contains("480×270"))
        #expect(settings.contains("Expanded controller") && settings.contains("780×1200"))
        // Choosing the first image: the detail screen's place follows at once.
        try await driver.send("Down", "Down", "Down", "Down", "Enter")
        try await driver.waitFor(text: "⏎ save  esc cancel")
        try await driver.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try await driver.sendLiteral("first")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Image picker (first), by place")
        try await driver.waitFor("every place showing the first image, the thumbnail") { screen in
            let places = screen.split(separator: "\n").filter { $0.contains("→ ") }
            return places.count == 5 && places.allSatisfy { $0.contains("480×270") }
        }
    }

    /// Pictures degrade with the terminal: 256 colours draw the half blocks in palette colours,
    /// and without colour (`NO_COLOR`) they are shades with no colour sequence at all.
    @Test(.timeLimit(.minutes(3)), arguments: ["256", "NO_COLOR"])
    func picturesDegradeWithTheTerminal(mode: String) async throws {
        let directory = try TmuxDriver.makeDirectory()
        await TmuxDriver.prepareBuiltInMedia()
        let environment = mode == "NO_COLOR" ? ["NO_COLOR": "1"] : ["COLORTERM": ""]
        let driver = try await TmuxDriver(
            arguments: ["--config-dir", directory.appendingPathComponent("config").path, "--no-virtual-device"],
            directory: directory,
            width: 120,
            height: 40,
            environment: environment
        )
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        if mode == "NO_COLOR" {
            try await driver.waitFor("thumbnails in shades") { screen in
                screen.split(separator: "\n").filter { $0.contains("▓▓▓▓▓") }.count >= 8
            }
            let styled = try await driver.captureWithStyles()
            #expect(!styled.contains("38;2;") && !styled.contains("38;5;") && !styled.contains("48;5;"), "no colour")
            #expect(!styled.contains("▀"))
        } else {
            try await driver.waitFor("thumbnails in half blocks") { screen in
                screen.split(separator: "\n").filter { $0.dropFirst(2).hasPrefix("▀▀▀▀▀▀▀▀▀▀") }.count >= 30
            }
            let styled = try await driver.captureWithStyles()
            #expect(styled.contains("38;5;") && !styled.contains("38;2;"), "palette colours only")
        }
        try await driver.send("s")
        let settings = try #require(await driver.waitFor(text: "Pictures: "))
        #expect(
            settings.contains(mode == "NO_COLOR" ? "shades (no colour)" : "half blocks in 256 colours"),
            "\(settings)"
        )
    }
}
