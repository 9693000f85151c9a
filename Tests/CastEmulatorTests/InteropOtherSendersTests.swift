import CastCore
import CastEmulator
import CastTestSupport
import Foundation
import Testing

/// A private, loopback-only network namespace (`unshare -n`) in which the `cast-emulator`
/// binary advertises one device over mDNS and a shell script runs real senders against it,
/// each under `timeout -s KILL`. Everything it writes goes to a fresh directory.
struct NamespaceRun {
    let directory: URL
    let status: Int32
    let output: String

    /// Runs `senders` (shell commands; `$D` is the directory, `$NAME` the device name) after
    /// the device is ready, with a media file server on `http://127.0.0.1:8099/` serving
    /// `movie.mp4` and `song.ogg`. The device runs with `arguments`, its frame log in
    /// `$D/frames.jsonl`.
    static func run(device name: String, arguments: [String], senders: String) async throws -> NamespaceRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("senders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The same small stand-in media the catt interop test serves.
        let media = Data((0..<4096).map { UInt8($0 % 256) })
        try media.write(to: directory.appendingPathComponent("movie.mp4"))
        try media.write(to: directory.appendingPathComponent("song.ogg"))
        let emulator = EmulatorProcessSuites.ServerCommandLineTests.executable
        let quoted =
            ([emulator, "--name", name, "--media", "simulate", "--mdns", "--log=\(directory.path)/frames.jsonl"]
            + arguments)
            .map(quote).joined(separator: " ")
        let script = """
            set -u
            D=\(quote(directory.path)); NAME=\(quote(name)); export D NAME
            ip link set lo up || exit 97
            \(quoted) >"$D/emulator.out" 2>"$D/emulator.err" &
            EMULATOR=$!
            python3 -m http.server 8099 --bind 127.0.0.1 --directory "$D" >/dev/null 2>&1 &
            MEDIA=$!
            i=0; until grep -q '^ready' "$D/emulator.err" || [ $i -ge 300 ]; do i=$((i+1)); sleep 0.1; done
            \(senders)
            kill -9 $EMULATOR $MEDIA 2>/dev/null
            wait $EMULATOR $MEDIA 2>/dev/null
            exit 0
            """
        // Waiting suspends: a blocked thread would starve the suites running beside it.
        let result = try await ChildProcess.run(
            "/usr/bin/unshare",
            ["-n", "sh", "-c", script],
            deadline: TestTiming.scaled(.seconds(180))
        )
        return NamespaceRun(
            directory: directory,
            status: result.status,
            output: result.standardOutput + result.standardError
        )
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    func text(_ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// The frames the device logged: direction and decoded payload.
    var frames: [(direction: String, payload: JSONValue)] {
        text("frames.jsonl").split(separator: "\n").compactMap { line in
            guard let record = try? JSONValue(parsing: String(line)), let direction = record["direction"]?.stringValue,
                let payload = record["payload"]?.stringValue.flatMap({ try? JSONValue(parsing: $0) })
            else { return nil }
            return (direction, payload)
        }
    }

    func inbound(_ type: String) -> [JSONValue] {
        frames.filter { $0.direction == "in" && $0.payload["type"]?.stringValue == type }.map(\.payload)
    }

    /// Whether the device reported `state` in a MEDIA_STATUS it sent.
    func sentPlayerState(_ state: String) -> Bool {
        frames.contains { frame in
            frame.direction == "out" && frame.payload["type"] == "MEDIA_STATUS"
                && (frame.payload["status"]?.arrayValue ?? []).contains { $0["playerState"]?.stringValue == state }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

extension EmulatorProcessSuites {
    /// Real senders besides PyChromecast and catt: nichromecast (PyPI; its own CASTV2 code,
    /// TLS framing and protobuf) and mkchromecast (Debian; built on Debian's PyChromecast 9,
    /// five major versions older than the one the other suites use).
    @Suite(.serialized, .requires(.pythonPeers, .networkNamespaces)) struct InteropOtherSendersTests {
        static var nichromecast: String {
            URL(fileURLWithPath: Interop.python).deletingLastPathComponent().appendingPathComponent("nichromecast").path
        }

        @Test func nichromecastLibraryDrivesASession() async throws {
            let device = try await Interop.startDevice(
                name: "Interop Nichro",
                model: "Living Room TV",
                profile: .television
            )
            let report = try await Interop.runScript("nichromecast_session.py", arguments: [device.options.address])
            report.expectSteps([
                "launch", "load plays", "pause", "play", "seek", "device volume", "second sender joins",
                "second sender sees the media", "stop",
            ])
            await device.stop()
        }

        @Test func nichromecastCommandLineFindsAndCastsByMDNS() async throws {
            try #require(FileManager.default.isExecutableFile(atPath: Self.nichromecast), "no \(Self.nichromecast)")
            let name = "Nichro Kitchen"
            let program = NamespaceRun.quote(Self.nichromecast)
            let run = try await NamespaceRun.run(
                device: name,
                arguments: ["--model", "Google Nest Mini"],
                senders: """
                    timeout -s KILL 40 \(program) scan --timeout 4 >"$D/scan.txt" 2>&1; echo $? >"$D/scan.status"
                    timeout -s KILL 60 \(program) cast http://127.0.0.1:8099/song.ogg -d "$NAME" --no-ui --timeout 4 \
                        >"$D/cast.txt" 2>&1; echo $? >"$D/cast.status"
                    """
            )
            defer { run.remove() }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.text("scan.status").hasPrefix("0"), "\(run.text("scan.txt"))")
            let line = run.text("scan.txt").split(separator: "\n").first { $0.contains(name) } ?? ""
            #expect(
                line.contains("127.0.0.2") && line.contains("Cast v2") && line.contains("[Google Nest Mini]"),
                "\(line)"
            )
            #expect(run.text("cast.status").hasPrefix("0"), "\(run.text("cast.txt"))")
            #expect(run.text("cast.txt").contains("playing on \(name)"), "\(run.text("cast.txt"))")
            #expect(run.inbound("LAUNCH").first?["appId"] == "CC1AD845")
            let load = try #require(run.inbound("LOAD").first, "no LOAD: \(run.text("emulator.err"))")
            #expect(load["media"]?["contentId"] == "http://127.0.0.1:8099/song.ogg")
            #expect(load["media"]?["contentType"] == "audio/ogg")
            #expect(run.sentPlayerState("PLAYING"))
        }

        @Test(.requires(.mkchromecast)) func mkchromecastFindsAndCastsByMDNS() async throws {
            try #require(RepositoryPaths.executableOnPath("mkchromecast") != nil, "mkchromecast is not installed")
            let name = "Mk Study"
            // Through a wrapper that serializes PyChromecast's socket writes, as the other
            // PyChromecast runs do (see serialized_sends.py), on the system Python.
            let program = "/usr/bin/python3 " + NamespaceRun.quote(Interop.script("mkchromecast_serialized.py"))
            let run = try await NamespaceRun.run(
                device: name,
                arguments: ["--model", "Chromecast"],
                // mkchromecast insists on a host address other than 127.0.0.1 (its network
                // check); it serves nothing with --source-url, so any loopback address does.
                // It keeps running after casting: it is killed once the device plays.
                senders: """
                    timeout -s KILL 40 \(program) -d --host 127.0.0.9 </dev/null >"$D/discover.txt" 2>&1
                    \(program) --source-url http://127.0.0.1:8099/song.ogg -c ogg -n "$NAME" --host 127.0.0.9 \
                        </dev/null >"$D/cast.txt" 2>&1 &
                    CASTER=$!
                    i=0
                    until grep '"direction":"out"' "$D/frames.jsonl" 2>/dev/null | grep -q 'PLAYING' || [ $i -ge 400 ]; do
                        i=$((i+1)); sleep 0.1
                    done
                    kill -9 $CASTER 2>/dev/null; wait $CASTER 2>/dev/null
                    """
            )
            defer { run.remove() }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.text("discover.txt").contains(name), "\(run.text("discover.txt"))")
            // Debian's PyChromecast read the device's setup document and status.
            #expect(run.text("cast.txt").contains("friendly_name='\(name)'"), "\(run.text("cast.txt"))")
            #expect(run.text("cast.txt").contains("volume_control_type='fixed'"), "\(run.text("cast.txt"))")
            #expect(run.inbound("LAUNCH").first?["appId"] == "CC1AD845")
            let load = try #require(run.inbound("LOAD").first, "no LOAD: \(run.text("cast.txt"))")
            #expect(load["media"]?["contentId"] == "http://127.0.0.1:8099/song.ogg")
            #expect(load["media"]?["contentType"] == "audio/ogg")
            #expect(run.sentPlayerState("PLAYING"), "\(run.text("cast.txt"))")
        }
    }
}
