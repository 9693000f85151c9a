import CastCore
import CastTestSupport
import Foundation
import Testing

extension EmulatorProcessSuites {
    /// VLC 3's Chromecast output (Debian's `vlc-bin` + `vlc-plugin-base`, installed by
    /// `scripts/test.sh`): an independent C++ implementation of the sender side. VLC refuses to
    /// run as root, so it runs as `nobody` (`setpriv`, `HOME` in the run's directory), inside a
    /// loopback-only namespace (`unshare -n`) with the `cast-emulator` binary in `fetch` mode.
    /// VLC serves its stream (live Matroska) on its own HTTP server and waits for the device
    /// to read it: the device's Matroska probe and stream following are what make it go on.
    @Suite(.serialized, .requires(.vlc, .ffmpeg, .networkNamespaces)) struct InteropVLCTests {
        static let vlc = "/usr/bin/cvlc"

        /// Casts an ffmpeg-made clip with VLC, types `pause`, `pause` (resume) and `seek 2` into
        /// VLC's `rc` console as the device reports each state, and lets the clip play out.
        @Test func vlcCastsAClipThatTheDevicePlaysToTheEnd() async throws {
            try #require(
                FileManager.default.isExecutableFile(atPath: Self.vlc),
                "VLC is not installed (scripts/test.sh installs vlc-bin and vlc-plugin-base)"
            )
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vlc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let clip = directory.appendingPathComponent("clip.mp4").path
            try await FFmpegMediaTests.ffmpeg([
                "-f", "lavfi", "-i", "testsrc=duration=6:size=320x240:rate=25", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=6", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-shortest", clip,
            ])
            let emulator = EmulatorProcessSuites.ServerCommandLineTests.executable
            let device = [
                emulator, "--name", "VLC Interop", "--address", "127.0.0.2", "--media", "fetch",
                "--log=\(directory.path)/frames.jsonl",
            ].map(NamespaceRun.quote).joined(separator: " ")
            let vlc = [
                "timeout", "-s", "KILL", "90", "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env",
                "HOME=\(directory.path)/home", Self.vlc, "-I", "rc", "--play-and-exit", clip, "--sout", "#chromecast",
                "--sout-chromecast-ip=127.0.0.2", "--demux-filter=demux_chromecast", "vlc://quit",
            ].map(NamespaceRun.quote).joined(separator: " ")
            // Each wait is bounded (at most 30 s); the whole run by the process deadline.
            let script = """
                set -u
                D=\(NamespaceRun.quote(directory.path))
                ip link set lo up || exit 97
                chmod 755 "$D"; chmod 644 "$D/clip.mp4"
                mkdir -p "$D/home"; chown 65534:65534 "$D/home"
                \(device) >"$D/emulator.out" 2>"$D/emulator.err" &
                EMULATOR=$!
                seen() { grep -q "$1" "$D/frames.jsonl" 2>/dev/null; }
                await() { i=0; until seen "$1" || [ $i -ge 300 ]; do i=$((i+1)); sleep 0.1; done; }
                i=0; until grep -q '^ready' "$D/emulator.err" || [ $i -ge 300 ]; do i=$((i+1)); sleep 0.1; done
                mkfifo "$D/rc"; chmod 666 "$D/rc"
                ( \(vlc) <"$D/rc" >"$D/vlc.out" 2>&1; echo $? >"$D/vlc.status" ) &
                VLC=$!
                exec 3>"$D/rc"
                await 'playerState\\\\":\\\\"PLAYING'
                # VLC polls the media status only once it is in its playing state: a pause typed
                # earlier would reach a session VLC does not know yet.
                await 'cast.media","payload":"{\\\\"type\\\\":\\\\"GET_STATUS'
                echo pause >&3
                await 'playerState\\\\":\\\\"PAUSED'
                echo pause >&3
                await '"type\\\\":\\\\"PLAY\\\\"'
                echo 'seek 2' >&3
                wait $VLC
                exec 3>&-
                kill -9 $EMULATOR 2>/dev/null
                wait $EMULATOR 2>/dev/null
                exit 0
                """
            let result = try await ChildProcess.run(
                "/usr/bin/unshare",
                ["-n", "sh", "-c", script],
                deadline: TestTiming.scaled(.seconds(180))
            )
            let run = NamespaceRun(
                directory: directory,
                status: result.status,
                output: result.standardOutput + result.standardError
            )
            #expect(result.status == 0, "\(run.output)")
            let vlcOutput = run.text("vlc.out")
            #expect(run.text("vlc.status").trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(vlcOutput)")

            // VLC authenticated (its empty challenge answered), connected and launched the
            // Default Media Receiver.
            #expect(!run.inbound("CONNECT").isEmpty)
            #expect(run.inbound("LAUNCH").first?["appId"] == "CC1AD845")
            let loads = run.inbound("LOAD")
            let url = try #require(loads.first?["media"]?["contentId"]?.stringValue)
            #expect(url.hasPrefix("http://127.0.0.1:8010/"))
            #expect(loads.first?["media"]?["contentType"] == "video/x-matroska")
            #expect(loads.first?["media"]?["streamType"] == "LIVE")

            // The device read VLC's stream and played it: the LOAD's reply is PLAYING.
            let statuses = run.frames.filter { $0.direction == "out" && $0.payload["type"] == "MEDIA_STATUS" }
                .map(\.payload)
            let loadRequest = try #require(loads.first?["requestId"]?.intValue)
            let reply = try #require(statuses.first { $0["requestId"]?.intValue == loadRequest })
            #expect(reply["status"]?[0]?["playerState"] == "PLAYING")
            let types = (reply["status"]?[0]?["media"]?["tracks"]?.arrayValue ?? []).compactMap {
                $0["type"]?.stringValue
            }
            #expect(types.sorted() == ["AUDIO", "VIDEO"])

            // `pause` in VLC's console arrives as PAUSE, the second one as PLAY.
            #expect(!run.inbound("PAUSE").isEmpty)
            #expect(run.sentPlayerState("PAUSED"))
            #expect(!run.inbound("PLAY").isEmpty)
            // A seek is a new LOAD of the same stream from VLC (it re-streams from there).
            #expect(loads.count == 2)
            #expect(loads.last?["media"]?["contentId"]?.stringValue == url)

            // The clip played to its end on the device; VLC then exited by itself.
            let last = try #require(statuses.last?["status"]?[0])
            #expect(last["playerState"] == "IDLE")
            #expect(last["idleReason"] == "FINISHED")
        }
    }
}
