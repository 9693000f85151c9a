import CastTestSupport
import Foundation
import Testing

/// The screens of castvideos as a person sees them, in tmux at 120×40 against the built-in
/// device and the built-in catalog's own pictures and media: thumbnails in the list, the
/// poster in the detail screen, artwork in the expanded and mini controllers (in colour half
/// blocks: tmux declares no graphics protocol), an ad with its skip countdown, the queue and
/// the custom channel. Each screen is saved under `.build/artifacts/castvideos/`
/// (``TmuxDriver/saveCapture(_:)``).
@Suite(.serialized)
struct CastVideosScreensTests {
    static func launch(width: Int = 120, height: Int = 40) async throws -> TmuxDriver {
        await TmuxDriver.prepareBuiltInMedia()
        let directory = try TmuxDriver.makeDirectory()
        return try await TmuxDriver(
            arguments: [
                "--config-dir", directory.appendingPathComponent("config").path,
                "--virtual-device-log", directory.appendingPathComponent("device.log").path,
                "--log", directory.appendingPathComponent("sdk.log").path,
                // The captures check cells: a tmux built with sixel would otherwise get pixels.
                "--pictures", "cells",
            ],
            directory: directory,
            width: width,
            height: height
        )
    }

    /// Rows of the screen that hold at least `count` half blocks in a row: pictures.
    static func pictureRows(_ screen: String, count: Int = 6) -> [Substring] {
        screen.split(separator: "\n").filter { $0.contains(String(repeating: "▀", count: count)) }
    }

    /// The 24-bit colours of the half blocks of a styled capture.
    static func colours(_ styled: String) -> Set<String> {
        Set(styled.matches(of: /38;2;(\d+);(\d+);(\d+)/).map { "\($0.1),\($0.2),\($0.3)" })
    }

    /// Dismisses the overlay (unless it was) and connects through the Cast button to the
    /// built-in device.
    static func connect(_ driver: TmuxDriver, dismissingOverlay: Bool = true) async throws {
        if dismissingOverlay {
            try await driver.waitFor(text: "Touch to cast media")
            try await driver.send("Enter")
            try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }
        }
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[▣ Casting on Living Room TV (virtual)]")
    }

    /// Opens the `index`-th video of the list (0-based) and plays it now on the device.
    static func playNow(_ driver: TmuxDriver, index: Int, title: String) async throws {
        try await driver.send("Home")
        for _ in 0..<index { try await driver.send("Down") }
        try await driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[ Play Now ]")
        try await driver.send("Enter")
        try await driver.waitFor("the expanded controller with \(title)") {
            $0.contains("Now casting") && $0.contains(title)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func picturesInTheListTheDetailAndTheControllers() async throws {
        let driver = try await Self.launch()
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        // Every row of the list has its thumbnail (all eleven videos fit at 40 rows, three
        // rows each), and the selected video a large one.
        let list = try #require(
            await driver.waitFor("a thumbnail on every row of the list") { screen in
                screen.split(separator: "\n").filter { $0.dropFirst(2).hasPrefix(String(repeating: "▀", count: 10)) }
                    .count >= 33
            }
        )
        #expect(list.contains("Tidewater Films · 12:28 · ads"), "the video with ads says so")
        #expect(list.contains("Tidewater Films · LIVE"), "the live stream says so")
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }
        try await driver.waitFor("the large thumbnail of the selected video") {
            $0.split(separator: "\n").contains { $0.contains(String(repeating: "▀", count: 40)) }
        }
        let listColours = Self.colours(try await driver.captureWithStyles())
        #expect(listColours.count > 50, "pictures in their colours: \(listColours.count)")
        try await driver.saveCapture("1-list")

        // The detail screen: the poster, portrait, beside the text.
        try await driver.send("Enter")
        try await driver.waitFor(text: "Local player")
        let detail = try #require(
            await driver.waitFor("the poster") { screen in
                let rows = Self.pictureRows(screen, count: 12)
                return rows.count >= 15 && rows.allSatisfy { $0.hasPrefix("  ▀") || $0.hasPrefix("   ") }
            }
        )
        #expect(detail.contains("A night shift at a small fishing port"))
        try await driver.saveCapture("2-detail")

        // Casting: the expanded controller shows the artwork (the poster, the largest image:
        // nothing is as large as the 1280×720 it asks for).
        try await driver.send("Escape")
        try await Self.connect(driver, dismissingOverlay: false)
        try await Self.playNow(driver, index: 0, title: "Harbour Lights")
        let expanded = try #require(
            await driver.waitFor("the artwork in the expanded controller") { screen in
                screen.split(separator: "\n").filter { $0.contains("│") && $0.contains("▀▀▀▀▀▀▀▀") }.count >= 8
                    && screen.contains("▶ Playing")
            }
        )
        #expect(expanded.contains("A night shift at a small fishing port"))
        try await driver.saveCapture("3-now-casting")

        // Back on the list, the mini controller's thumbnail.
        try await driver.send("Escape")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Escape")
        try await driver.waitFor("the mini controller with its thumbnail") { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("▀▀▀▀ ▶ Harbour Lights") }
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func anAdCountsDownAndIsSkippedThenTheCustomChannelAnswers() async throws {
        let driver = try await Self.launch()
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        try await Self.connect(driver)
        // Salt and Smoke starts with a 30 s clip skippable after 12 s: 12 s of real time for
        // the early press to arrive before the clip can be skipped, and 18 s for the second
        // press, which a loaded machine's screen polls and key deliveries still leave (with
        // 5 s, a press delayed at the start of a loaded run arrived once the clip could be
        // skipped, and skipped it).
        try await Self.playNow(driver, index: 3, title: "Salt and Smoke")
        let countdown = try await driver.waitFor("the ad's countdown") {
            $0.contains("Ad: Tidewater Films presents") && $0.contains("Skip ad in ")
        }
        // The early press only when the countdown leaves it time to arrive: a run starved past
        // the first seconds of the clip checks the skip alone.
        let secondsLeft = countdown?.firstMatch(of: /Skip ad in (\d+)/).flatMap { Int($0.1) } ?? 0
        let pressedEarly = secondsLeft >= 5
        if pressedEarly {
            try await driver.send("s")
            // "The ad can be skipped in N s" is a two-second flash, which a starved screen poll
            // can miss; what lasts decides below: the early press sent no SKIP_AD.
            try await driver.waitFor("the early press's answer, or the skip button") {
                $0.contains("The ad can be skipped in") || $0.contains("Skip ad (s)")
            }
        } else {
            print("the ad's countdown was at \(secondsLeft) s when seen: the early press is not tried")
        }
        try await driver.waitFor(text: "Skip ad (s)")
        try await driver.saveCapture("4-expanded-with-ad")
        try await driver.send("s")
        try await CastVideosAppTests.waitForDeviceLog(driver, "SKIP_AD from the expanded controller") {
            $0.contains(#""direction":"in""#) && $0.contains(#"\"type\":\"SKIP_AD\""#)
        }
        try await driver.waitFor("the video after the ad") { !$0.contains("Ad: ") && $0.contains("▶ Playing") }
        #expect(CastVideosFeatureTests.inbound(driver, "SKIP_AD").count == 1, "the early press sent nothing")

        // The custom channel: a message to the receiver app and its reply.
        try await driver.send("Escape")
        try await driver.waitFor(text: "Local player")
        try await driver.send("Escape")
        try await driver.waitFor(text: "space pause · e expand")
        try await driver.send("h")
        try await driver.waitFor(text: "Custom channel")
        try await driver.waitFor(text: "Connected to Default Media Receiver")
        try await driver.sendLiteral("Hello World")
        try await driver.send("Enter")
        try await driver.waitFor(text: "← receiver: Hello World")
        try await CastVideosAppTests.waitForDeviceLog(driver, "the message on the text channel") {
            $0.contains(#""direction":"in""#) && $0.contains("com.google.cast.sample.helloworld")
                && $0.contains("Hello World")
        }
        try await driver.sendLiteral("q and c are text here")
        try await driver.send("Enter")
        try await driver.waitFor(text: "← receiver: q and c are text here")
        try await driver.saveCapture("6-custom-channel")
        try await driver.send("Escape")
        try await driver.waitFor(text: "↑↓ select")

        // A video without captions: its only audio track is shown selected.
        try await Self.playNow(driver, index: 1, title: "Paper Orbit")
        try await driver.send("t")
        try await driver.waitFor(text: "● Audio: eng")
        try await CastVideosAppTests.waitForDeviceLog(driver, "the audio track active in a MEDIA_STATUS") {
            $0.contains(#""direction":"out""#) && $0.contains("Paper Orbit") && $0.contains(#"\"activeTrackIds\":[2]"#)
        }
        try await driver.send("Escape")
    }

    /// Found on "Now casting" while media played: `u` did not open the queue (a second "Now
    /// casting" went on top of it) and from then on Esc did nothing; and the queue's footer
    /// listed "space play/pause" twice, the detail box said "Playing" while paused, and
    /// "Connecting to…" stayed after the session connected.
    @Test(.timeLimit(.minutes(5)))
    func theQueueOpensWhilePlayingAndTheScreensSayWhatIsTrue() async throws {
        let driver = try await Self.launch()
        defer { driver.stop() }
        try await driver.waitFor(text: "Harbour Lights")
        try await driver.waitFor(text: "Touch to cast media")
        try await driver.send("Enter")
        try await driver.waitFor("the overlay to close") { !$0.contains("Touch to cast media") }
        try await driver.send("c")
        try await driver.waitFor(text: "Allow local network access")
        try await driver.send("Enter")
        try await driver.waitFor(text: "Living Room TV (virtual)")
        try await driver.send("Enter")
        try await driver.waitFor(text: "[▣ Casting on Living Room TV (virtual)]")
        // The connecting note lasts as long as connecting: it gives way to the outcome. The
        // outcome ("Connected to …") is a four-second toast a starved screen poll can miss, so
        // the wait is for the note to go; WidgetDrawingTests checks the withdrawal in memory.
        try await driver.waitFor("the connecting note to give way", timeout: .seconds(20)) {
            $0.contains("[▣ Casting on") && !$0.contains("Connecting to")
        }

        try await Self.playNow(driver, index: 0, title: "Harbour Lights")
        try await driver.waitFor(text: "▶ Playing")
        // Media status keeps arriving while it plays: the queue must stay on top.
        try await driver.send("u")
        try await driver.waitFor(text: "Queue on Living Room TV (virtual)")
        // Real time on purpose: the device sends status when something changes, and what is
        // checked is that nothing pushes another screen over the queue for a while of playing;
        // no event marks the end of such a while.
        try await Task.sleep(for: .seconds(2))
        let queue = try await driver.saveCapture("5-queue")
        #expect(queue.contains("Queue on Living Room TV (virtual)"), "still the queue after two seconds of status")
        let footer = try #require(queue.split(separator: "\n").last { $0.contains("? help") })
        #expect(footer.ranges(of: "space play/pause").count == 1, "\(footer)")
        try await driver.send("Escape")
        try await driver.waitFor("the expanded controller again") {
            $0.contains("Now casting") && $0.contains("▶ Playing")
        }
        try await driver.send("Escape")
        try await driver.waitFor(text: "▣ Playing on Living Room TV (virtual)")
        // Paused from the mini controller: the detail box says so.
        try await driver.send("Space")
        try await driver.waitFor(text: "▣ Paused on Living Room TV (virtual)")
        try await driver.send("Escape")
        try await driver.waitFor("the list") { $0.contains("↑↓ select") && !$0.contains("Local player") }
    }
}
