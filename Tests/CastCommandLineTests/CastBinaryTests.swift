import CastCommandLine
import CastCore
import CastEmulator
import CastNet
import CastNetCore
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `cast` binary against in-process virtual devices on loopback: each command's
/// effect is checked in what the device reports, not in what `cast` prints.
@Suite("cast binary end to end")
struct CastBinaryTests {
    private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    @Test func playControlsAndRejoinWithoutSecondLaunch() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }

        var result = try await fixture.cast("play", "https://media.invalid/movie.mp4", "--title", "Big Movie")
        #expect(result.status == 0, "\(result.stderr)")
        let load = try #require(fixture.frames.inbound(type: "LOAD").last)
        let media = load["media"] as? [String: Any]
        #expect(media?["contentId"] as? String == "https://media.invalid/movie.mp4")
        #expect((media?["metadata"] as? [String: Any])?["title"] as? String == "Big Movie")
        #expect(fixture.frames.media?["playerState"] as? String == "PLAYING")

        result = try await fixture.cast("pause")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PAUSED")

        result = try await fixture.cast("resume")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PLAYING")

        result = try await fixture.cast("seek", "1:30")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(number(fixture.frames.inbound(type: "SEEK").last?["currentTime"]) == 90)
        let afterSeek = try #require(number(fixture.frames.media?["currentTime"]))
        #expect(afterSeek >= 90 && afterSeek < 95)

        result = try await fixture.cast("seek", "-30")
        #expect(result.status == 0, "\(result.stderr)")
        let relative = try #require(number(fixture.frames.inbound(type: "SEEK").last?["currentTime"]))
        #expect(relative >= 60 && relative < 66)

        result = try await fixture.cast("status", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let statusMedia = try #require(status["media"] as? [String: Any])
        #expect(statusMedia["title"] as? String == "Big Movie")
        #expect(statusMedia["playerState"] as? String == "PLAYING")
        #expect((status["app"] as? [String: Any])?["appId"] as? String == "CC1AD845")
        #expect((status["device"] as? [String: Any])?["port"] as? Int == fixture.ports.cast)

        // A second play on the running app replaces the media, still without a LAUNCH.
        result = try await fixture.cast("play", "https://media.invalid/second.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            (fixture.frames.media?["media"] as? [String: Any])?["contentId"] as? String
                == "https://media.invalid/second.mp4"
        )

        result = try await fixture.cast("stop")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "IDLE")

        #expect(fixture.frames.inbound(type: "LAUNCH").count == 1)
        // Later invocations rejoined: each connected to the same transport id.
        #expect(
            FileManager.default.fileExists(atPath: fixture.stateDirectory.appendingPathComponent("session.json").path)
        )
    }

    /// Rejoining the saved session races it against the request timeout; once the rejoin
    /// wins, the command goes on at once instead of waiting for the timer to run out. With a
    /// five-minute timeout, a command that waited for it would be killed at the deadline.
    @Test func aCommandThatRejoinsTheSavedSessionDoesNotWaitOutTheRequestTimeout() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var environment = fixture.environment
        environment["CAST_REQUEST_TIMEOUT"] = "300"
        let run = { (arguments: [String]) async throws -> CastProcess.Result in
            try await CastProcess.run(
                ["-d", fixture.target] + arguments,
                environment: environment,
                timeout: TestTiming.scaled(60)
            )
        }
        var result = try await run(["play", "https://media.invalid/movie.mp4"])
        #expect(result.status == 0, "\(result.stderr)")
        for arguments in [["pause"], ["resume"], ["status"]] {
            result = try await run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(fixture.frames.inbound(type: "LAUNCH").count == 1)
        #expect(fixture.frames.inbound(type: "PAUSE").count == 1)
    }

    @Test func fixedVolumeDeviceSaysSoAndSendsNothing() async throws {
        let fixture = try await DeviceFixture.start(profile: .hdmiDongle)
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        for arguments in [["volume", "40%"], ["mute"], ["unmute"]] {
            result = try await CastProcess.run(["-d", fixture.target] + arguments, environment: fixture.environment)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("cast \(arguments[0]): the volume of ") && result.stderr.contains(" is fixed"),
                "\(result.stderr)"
            )
        }
        #expect(fixture.frames.inbound(type: "SET_VOLUME").isEmpty)
        // The stream volume is the media's own: it still changes.
        result = try await fixture.cast("volume", "--stream", "0.5")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(number((fixture.frames.media?["volume"] as? [String: Any])?["level"]) == 0.5)
    }

    /// `cast status` after `cast volume 40% --stream`: the device's volume and the stream's.
    @Test func statusShowsTheStreamVolume() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await fixture.cast("status")
        #expect(result.stdout.contains("Volume:  100%\n"), "full stream volume is not repeated: \(result.stdout)")
        result = try await fixture.cast("volume", "40%", "--stream")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await fixture.cast("status")
        #expect(result.stdout.contains("Volume:  100% · stream 40%"), "\(result.stdout)")
    }

    @Test func volumeMuteAndRate() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")

        result = try await fixture.cast("volume", "40%")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(number(fixture.frames.volume?["level"]) == 0.4)

        result = try await fixture.cast("mute")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.volume?["muted"] as? Bool == true)

        result = try await fixture.cast("unmute")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.volume?["muted"] as? Bool == false)

        result = try await fixture.cast("volume", "--stream", "0.5")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(number((fixture.frames.media?["volume"] as? [String: Any])?["level"]) == 0.5)

        result = try await fixture.cast("rate", "1.5")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(number(fixture.frames.media?["playbackRate"]) == 1.5)
        #expect(fixture.frames.inbound(type: "LAUNCH").count == 1)
    }

    @Test func queueCommands() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast(
            "play",
            "https://media.invalid/a.mp4",
            "--queue",
            "https://media.invalid/b.mp4",
            "--queue",
            "https://media.invalid/c.mp4"
        )
        #expect(result.status == 0, "\(result.stderr)")
        let queueLoad = fixture.frames.inbound(type: "QUEUE_LOAD").last ?? fixture.frames.inbound(type: "LOAD").last
        let queued = (queueLoad?["items"] ?? (queueLoad?["queueData"] as? [String: Any])?["items"]) as? [[String: Any]]
        #expect(queued?.count == 3)

        func list() async throws -> [[String: Any]] {
            let result = try await fixture.cast("queue", "list", "--json")
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        }
        var items = try await list()
        #expect(
            items.compactMap { $0["contentId"] as? String }.map { String($0.suffix(5)) } == ["a.mp4", "b.mp4", "c.mp4"]
        )
        let firstID = try #require(items.first?["itemId"] as? Int)
        let secondID = try #require(items.dropFirst().first?["itemId"] as? Int)

        result = try await fixture.cast("next")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["currentItemId"] as? Int == secondID)

        result = try await fixture.cast("prev")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["currentItemId"] as? Int == firstID)

        result = try await fixture.cast("queue", "add", "https://media.invalid/d.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        items = try await list()
        #expect(items.last?["contentId"] as? String == "https://media.invalid/d.mp4")
        #expect(items.count == 4)

        result = try await fixture.cast("queue", "remove", String(secondID))
        #expect(result.status == 0, "\(result.stderr)")
        items = try await list()
        #expect(items.count == 3)
        #expect(!items.contains { $0["itemId"] as? Int == secondID })
    }

    @Test func subtitleTracksOnAndOff() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast(
            "play",
            "https://media.invalid/a.mp4",
            "--subtitle",
            "https://media.invalid/a.vtt"
        )
        #expect(result.status == 0, "\(result.stderr)")
        let load = try #require(fixture.frames.inbound(type: "LOAD").last)
        let tracks = (load["media"] as? [String: Any])?["tracks"] as? [[String: Any]]
        #expect(tracks?.first?["trackContentId"] as? String == "https://media.invalid/a.vtt")
        #expect(fixture.frames.media?["activeTrackIds"] as? [Int] == [1])

        result = try await fixture.cast("tracks", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["active"] as? Bool == true)
        #expect(listed.first?["type"] as? String == "TEXT")

        result = try await fixture.cast("tracks", "off")
        #expect(result.status == 0, "\(result.stderr)")
        #expect((fixture.frames.media?["activeTrackIds"] as? [Int] ?? []) == [])

        result = try await fixture.cast("tracks", "on", "1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["activeTrackIds"] as? [Int] == [1])

        result = try await fixture.cast("tracks", "on", "7")
        #expect(result.status == 1)
        #expect(result.stderr.contains("no track 7"))
    }

    @Test func sendPrintsRepliesAndInfoReadsEureka() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")

        // Ends at the first reply; the long --wait only guards a loaded run against a hang.
        let patience = String(Int(TestTiming.scaled(45.0)))
        result = try await fixture.cast(
            "send",
            DeviceFixture.echoNamespace,
            #"{"type":"HELLO","n":7}"#,
            "--wait",
            patience,
            "--replies",
            "1"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "HELLO").count == 1)
        #expect(result.stdout.contains(#""HELLO""#))

        result = try await fixture.cast("info", "--setup-port", String(fixture.ports.http), "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(info["name"] as? String == "Test Room")

        result = try await fixture.cast("info", "--setup-port", String(fixture.ports.http))
        #expect(result.status == 0)
        #expect(result.stdout.contains("Name:          Test Room"))
    }

    @Test func quitStopsTheAppAndForgetsTheSession() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await fixture.cast("quit")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "STOP").contains { $0["sessionId"] != nil && $0["mediaSessionId"] == nil })
        let apps =
            (fixture.frames.lastStatus("RECEIVER_STATUS")?["status"] as? [String: Any])?["applications"]
            as? [[String: Any]]
        #expect(!(apps ?? []).contains { $0["appId"] as? String == "CC1AD845" })
        #expect(
            !FileManager.default.fileExists(atPath: fixture.stateDirectory.appendingPathComponent("session.json").path)
        )
    }

    @Test func localFileIsServedWithRangesUntilInterrupted() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let directory = fixture.stateDirectory.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let movie = directory.appendingPathComponent("holiday clip.mp4")
        try Data(bytes).write(to: movie)
        let subtitles = directory.appendingPathComponent("holiday.srt")
        try Data("\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i>\r\n".utf8).write(to: subtitles)

        let child = try CastProcess.start(
            ["-d", fixture.target, "play", movie.path, "--subtitle", subtitles.path],
            environment: fixture.environment
        )
        _ = await FileChangeWatch.waitUntil(child.stderrURL.path, within: .seconds(20)) {
            child.stderr.contains("Serving") || !child.process.isRunning
        }
        #expect(child.stderr.contains("Serving"), "\(child.stderr)")
        let load = try #require(fixture.frames.inbound(type: "LOAD").last)
        let media = try #require(load["media"] as? [String: Any])
        let url = try #require(media["contentId"] as? String)
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(media["contentType"] as? String == "video/mp4")

        // Fetch a range as a device would, with the URL the LOAD carried.
        let ranged = try await HTTPClient().execute(.get, url: url, headers: ["Range": "bytes=1000-1999"])
        #expect(ranged.status.code == 206)
        #expect(ranged.headers["Content-Range"] == "bytes 1000-1999/200000")
        #expect(ranged.body == Array(bytes[1000...1999]))
        let whole = try await HTTPClient().get(url)
        #expect(whole.body.count == bytes.count)

        let track = try #require((media["tracks"] as? [[String: Any]])?.first)
        let vttURL = try #require(track["trackContentId"] as? String)
        let vtt = try await HTTPClient().get(vttURL)
        #expect(vtt.headers["Content-Type"] == "text/vtt")
        #expect(String(decoding: vtt.body, as: UTF8.self) == "WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n<i>Hello</i>\n")

        kill(child.process.processIdentifier, SIGINT)
        let result = await child.finish(within: 10)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "STOP").count >= 1)
        await #expect(throws: (any Error).self) { _ = try await HTTPClient().get(url) }
    }

    @Test func runtimeFailuresExitWithOneAndOneLine() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await CastProcess.run(["-d", "127.0.0.1:1", "pause"], environment: fixture.environment)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("no Cast device answers at 127.0.0.1:1"))

        result = try await fixture.cast("play", fixture.stateDirectory.appendingPathComponent("missing.mp4").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read file"))

        // No ad is playing: the receiver refuses SKIP_AD and the reason is reported.
        result = try await fixture.cast("play", "https://media.invalid/plain.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        result = try await fixture.cast("skip-ad")
        #expect(result.status == 1)
        #expect(fixture.frames.inbound(type: "SKIP_AD").count == 1)
        #expect(result.stderr == "cast skip-ad: SKIP_AD failed: the receiver answered INVALID_PLAYER_STATE\n")

        result = try await fixture.cast("play", "https://media.invalid/unloadable.mp4")
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1)

        // No device named and none saved: discovery finds none. It runs on the loopback of a
        // network namespace of its own, where no other suite's test devices are advertised.
        var bare = fixture.environment
        bare["CAST_STATE_DIR"] = fixture.stateDirectory.appendingPathComponent("other").path
        bare["CAST_DISCOVERY_INTERFACES"] = "lo"
        let isolated = [
            "/usr/bin/unshare", "-n", "--", "/bin/sh", "-c", "/usr/sbin/ip link set lo up && exec \"$@\"", "sh",
        ]
        result = try await CastProcess.run(["pause"], environment: bare, launcher: isolated)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("no device found"), "\(result.stderr)")

        // With no interface named, the namespace's loopback is all there is, and discovery
        // does not run on loopback by default: the error names it, why, and how to choose.
        bare["CAST_DISCOVERY_INTERFACES"] = nil
        result = try await CastProcess.run(["devices"], environment: bare, launcher: isolated)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("seen: lo (loopback, left out by default)"), "\(result.stderr)")
        #expect(result.stderr.contains("--interface NAME"), "\(result.stderr)")
        #expect(result.stderr.contains("--interface lo"), "\(result.stderr)")
    }

    @Test func controlCommandsNeverLaunchAndJoinWithoutSavedSession() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("pause")
        #expect(result.status == 1)
        #expect(result.stderr.contains("nothing is playing"))
        result = try await fixture.cast("status", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let idle = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(idle["app"] is NSNull && idle["media"] is NSNull)
        #expect(fixture.frames.inbound(type: "LAUNCH").isEmpty)

        result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        // Another machine (no saved session) joins the running app instead of relaunching it.
        try FileManager.default.removeItem(at: fixture.stateDirectory.appendingPathComponent("session.json"))
        result = try await fixture.cast("pause")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PAUSED")
        #expect(fixture.frames.inbound(type: "LAUNCH").count == 1)
    }

    @Test func devicesListsAnAddressedDeviceAsJSON() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let result = try await CastProcess.run(
            ["-d", fixture.target, "devices", "--timeout", "0.2", "--json"],
            environment: fixture.environment.merging(["CAST_DISCOVERY_INTERFACES": "lo"]) { $1 }
        )
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(
            devices.contains { $0["host"] as? String == fixture.address && $0["port"] as? Int == fixture.ports.cast }
        )
    }

    @Test func usageErrorsExitWithTwo() async throws {
        let result = try await CastProcess.run(["seek", "soon"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("'soon' is not a position"))
        let help = try await CastProcess.run(["--version"])
        #expect(help.status == 0)
        #expect(help.stdout == "cast \(CastCommandLine.version)\n")
    }
}
