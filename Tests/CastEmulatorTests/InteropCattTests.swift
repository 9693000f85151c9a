import CastCore
import CastTestSupport
import Foundation
import Testing

@testable import CastEmulator

extension EmulatorProcessSuites {
    /// catt 0.13 against an in-process virtual device, by address (`catt -d <address>`).
    @Suite(.serialized, .requires(.pythonPeers)) struct InteropCattTests {
        @Test func castControlAndStop() async throws {
            let device = try await Interop.startDevice(name: "Interop Bedroom")
            let report = try await Interop.runScript("catt_session.py", arguments: [device.options.address])
            report.expectSteps([
                "cast", "status playing", "pause", "status paused", "play", "seek", "position after seek", "volume",
                "status volume", "stop", "status after stop",
            ])
            await device.stop()
        }

        /// The device reads what catt casts (served from loopback by the test): an MP4 with
        /// `moov` at its end shows its own duration in `catt info`, a live HLS playlist is
        /// LIVE, and an unplayable file makes `catt cast --block` fail (with MEDIA_SRC_NOT_SUPPORTED
        /// when catt heard the LOAD_FAILED; see catt_media.py).
        @Test func realMediaReachesCattsStatus() async throws {
            try await MediaFetcherTests.withServer { base in
                let device = try await Interop.startDevice(name: "Interop Media Den", mediaMode: .fetch)
                let seconds = try #require(MP4ProbeTests.expected.duration)
                let report = try await Interop.runScript(
                    "catt_media.py",
                    arguments: [
                        device.options.address, base + "/end.mp4", "\(seconds)", base + "/live.m3u8",
                        base + "/noise-as-mp4",
                    ],
                    deadline: .seconds(300)
                )
                report.expectSteps([
                    "mp4 cast", "mp4 duration from the file", "mp4 buffered", "live cast", "live stream type", "stop",
                    "unplayable load failed",
                ])
                await device.stop()
            }
        }

        /// catt finds a speaker group by name over mDNS (inside a private namespace) and casts
        /// to it: the LOAD reaches the group's own Cast channel and the group plays.
        @Test(.requires(.networkNamespaces)) func castsToAGroupByName() async throws {
            let catt = [Interop.python, Interop.script("catt_serialized.py")].map(NamespaceRun.quote).joined(
                separator: " "
            )
            let run = try await NamespaceRun.run(
                device: "Catt Kitchen",
                arguments: [
                    "--devices", "2", "--model", "Google Nest Mini", "--group",
                    "Catt Group=Catt Kitchen,Catt Kitchen 2",
                ],
                senders: """
                    timeout -s KILL 40 \(catt) scan >"$D/scan.txt" 2>&1; echo $? >"$D/scan.status"
                    timeout -s KILL 60 \(catt) -d "Catt Group" cast http://127.0.0.1:8099/song.ogg \
                        >"$D/cast.txt" 2>&1; echo $? >"$D/cast.status"
                    timeout -s KILL 40 \(catt) -d "Catt Group" status >"$D/status.txt" 2>&1; echo $? >"$D/status.status"
                    """
            )
            defer { run.remove() }
            #expect(run.status == 0, "\(run.output)")
            #expect(run.text("scan.status").hasPrefix("0"), "\(run.text("scan.txt"))")
            #expect(
                run.text("scan.txt").contains("Catt Group - Google Inc. Google Cast Group"),
                "\(run.text("scan.txt"))"
            )
            #expect(run.text("cast.status").hasPrefix("0"), "\(run.text("cast.txt"))")
            #expect(run.text("cast.txt").contains("on \"Catt Group\""), "\(run.text("cast.txt"))")
            #expect(run.text("status.txt").contains("State: PLAYING"), "\(run.text("status.txt"))")
            let records = run.text("frames.jsonl").split(separator: "\n").compactMap {
                try? JSONValue(parsing: String($0))
            }
            let load = records.first { record in
                let payload = record["payload"]?.stringValue.flatMap { try? JSONValue(parsing: $0) }
                return record["direction"] == "in" && payload?["type"] == "LOAD"
            }
            #expect(load?["device"] == "Catt Group", "the LOAD went to \(String(describing: load?["device"]))")
        }
    }
}
