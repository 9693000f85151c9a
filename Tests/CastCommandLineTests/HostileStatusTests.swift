import CastCore
import Foundation
import Testing

@testable import CastCommandLine

/// `cast status` printing numbers a hostile device reports: clamped, never trapping.
@Suite struct HostileStatusTests {
    static func report(volume: Double?, duration: Double?, position: Double?) -> StatusReport {
        let device = CastDevice(id: UUID(), friendlyName: "TV", modelName: "Chromecast", port: 8009)
        var report = StatusReport(idleDevice: device, host: "127.0.0.1", port: 8009)
        report.volume = volume
        report.muted = false
        report.media = MediaStatus(
            mediaSessionID: 1,
            media: MediaInformation(contentID: "http://m/1.mp4", duration: duration),
            playerState: .playing,
            currentTime: position
        )
        report.position = position
        return report
    }

    @Test(arguments: [(1e300, "100%"), (-1e300, "0%"), (Double.nan, "0%"), (0.456, "46%")])
    func anOutOfRangeVolumeIsClamped(level: Double, text: String) {
        let lines = Self.report(volume: level, duration: 30, position: 1).lines(output: CapturedOutput().sink)
        #expect(lines.map(\.plainText).contains("Volume:  \(text)"))
    }

    @Test(arguments: [1e300, -1e300, Double.nan, Double.infinity])
    func anEndlessDurationOrPositionPrints(value: Double) {
        let lines = Self.report(volume: 1, duration: value, position: value).lines(output: CapturedOutput().sink)
        #expect(lines.contains { $0.plainText.hasPrefix("Time:    [") })
    }

    /// JSON cannot hold NaN or infinity: such a field prints as `null` and the rest of the
    /// report is still there (before, the whole report printed as `null`).
    @Test(arguments: [Double.nan, Double.infinity, -Double.infinity])
    func aNonFiniteNumberIsNullInTheJSON(value: Double) throws {
        let text = OutputSink.encode(Self.report(volume: value, duration: value, position: value).json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let media = try #require(object["media"] as? [String: Any])
        #expect(media["duration"] is NSNull)
        #expect(media["currentTime"] is NSNull)
        #expect((object["volume"] as? [String: Any])?["level"] is NSNull)
        #expect(media["contentId"] as? String == "http://m/1.mp4")
    }

    @Test func theJSONIsOneLineWithSortedKeysAndEscapedControls() {
        var report = Self.report(volume: 0.5, duration: 600, position: 91.25)
        report.deviceName = "TV\u{1B}]0;owned\u{07}\n"
        let text = OutputSink.encode(report.json)
        #expect(!text.contains("\n") && !text.contains("\u{1B}") && !text.contains("\u{07}"))
        #expect(text.contains(#""name":"TV\u001b]0;owned\u0007\n""#))
        #expect(text.hasPrefix(#"{"app":null,"device":{"host":"127.0.0.1","name":"#))
        // Whole numbers print as integers, as docs/cli.md shows them.
        #expect(text.contains(#""duration":600,"#) && text.contains(#""currentTime":91.25,"#))
        #expect(text.contains(#""volume":{"level":0.5,"muted":false}}"#))
    }
}

/// Timeouts from the environment are range-checked: anything but 0 < seconds <= one day is
/// a usage error before any network traffic, never a trapping conversion.
@Suite struct EnvironmentTimeoutTests {
    @Test(arguments: ["inf", "1e20", "nan", "-1", "0", "86401", "ten"])
    func anOutOfRangeTimeoutIsAUsageError(value: String) async {
        for name in ["CAST_REQUEST_TIMEOUT", "CAST_LAUNCH_TIMEOUT"] {
            let output = CapturedOutput()
            let code = await CastCommandLine.run(
                ["status"],
                environment: ["HOME": "/nonexistent", name: value],
                output: output.sink
            )
            #expect(code == .usage)
            #expect(output.err.contains(name))
        }
    }

    @Test func anInRangeTimeoutIsUsed() throws {
        #expect(try CommandRuntime.timeout(["T": "2.5"], "T") == .milliseconds(2500))
        #expect(try CommandRuntime.timeout(["T": "86400"], "T") == .seconds(86400))
        #expect(try CommandRuntime.timeout([:], "T") == nil)
    }
}

/// `cast status` text never carries a device's escape sequences to the terminal.
@Suite struct StatusTextSanitizingTests {
    @Test func deviceStringsArePrintedWithoutControls() {
        var report = HostileStatusTests.report(volume: 0.5, duration: 30, position: 1)
        report.deviceName = "TV\u{1B}]0;owned\u{07}"
        var metadata = MediaMetadata()
        metadata.title = "\u{1B}[2JTitle\u{1B}]52;c;eA==\u{07}"
        report.media?.media?.metadata = metadata
        let text = report.lines(output: CapturedOutput().sink).map(\.plainText).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(text.contains("Device:  TV (127.0.0.1"))
        #expect(text.contains("Title:   Title"))
    }
}
