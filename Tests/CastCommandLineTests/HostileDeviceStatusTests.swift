import CastCore
import CastSenderTestSupport
import Foundation
import Testing

/// `cast` run as a real process against a fake device over TLS: the virtual device whose
/// RECEIVER_STATUS reports a volume level of 1e300 and whose MEDIA_STATUS reports a duration of
/// 1e300, a position past any range and titles and app names holding terminal escape
/// sequences. `cast play` and `cast status` exit 0 with clean output: the volume reads 100%,
/// no control character reaches the terminal, and `--json` prints one JSON object.
@Suite struct HostileDeviceStatusTests {
    static let escapes = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}]52;c;eA==\u{07}\u{9B}31m"

    static let rewrite: HostilePayloads.Rewrite = { type, payload in
        switch type {
        case "RECEIVER_STATUS":
            payload["status"]?["volume"]?["level"] = .double(1e300)
            payload["status"]?["volume"]?["stepInterval"] = .double(-1e300)
            payload["status"]?.editEach("applications") { $0["displayName"] = .string("App\(escapes)") }
        case "MEDIA_STATUS":
            payload.editEach("status") { status in
                status["currentTime"] = .double(1.7976931348623157e308)
                status["playbackRate"] = .double(1e300)
                if status["media"] != nil {
                    status["media"]?["duration"] = .double(1e300)
                    status["media"]?["metadata"] = ["metadataType": 0, "title": .string("Title\(escapes)")]
                }
            }
        default:
            break
        }
    }

    static func controls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) }
    }

    @Test func playAndStatusSurviveAHostileDevice() async throws {
        let fixture = try await DeviceFixture.start(hostile: Self.rewrite)
        defer { Task { await fixture.stop() } }

        var result = try await fixture.cast("play", "https://media.invalid/movie.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.controls(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")

        result = try await fixture.cast("status")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.controls(result.stdout + result.stderr).isEmpty, "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("Volume:  100%"), "\(result.stdout)")
        #expect(result.stdout.contains("Title:   Title"), "\(result.stdout)")
        #expect(result.stdout.contains("Time:    ["), "\(result.stdout)")

        result = try await fixture.cast("status", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stdout)")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let volume = try #require((status["volume"] as? [String: Any])?["level"] as? Double)
        #expect((0...1).contains(volume))
        let media = try #require(status["media"] as? [String: Any])
        let duration = try #require(media["duration"] as? Double)
        #expect(duration <= WireNumber.maximumSeconds)
        #expect((media["title"] as? String)?.hasPrefix("Title") == true)

        // The device is still in charge: a command after the statuses goes through.
        result = try await fixture.cast("pause")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
