import Foundation

/// The `cast` binary beside `cast-bench`, run as a user runs it: `cast -d HOST:PORT play URL`
/// (connect, launch, LOAD, the device's PLAYING status, exit) and `cast --version` (the process
/// floor: start, `main`, one line, exit).
///
/// It runs with `--insecure` because the cross-process device does not hold a Cast
/// certificate from Google's roots, and PyChromecast, the other column, never authenticates:
/// both sides do the same protocol work. Its state and configuration live in a directory of
/// its own, so no saved session of the user's is rejoined or overwritten.
final class CommandLineRun {
    private let executable: String
    private let device: String
    private let directory: URL

    /// The `cast` beside `ownExecutable`, or nil when it was not built.
    init?(beside ownExecutable: String, host: String, port: String) {
        let sibling = URL(fileURLWithPath: ownExecutable).deletingLastPathComponent().appendingPathComponent("cast")
        guard FileManager.default.isExecutableFile(atPath: sibling.path) else { return nil }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("cast-bench-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil
        else { return nil }
        executable = sibling.path
        device = "\(host):\(port)"
        self.directory = directory
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private var environment: [String: String] {
        ["CAST_STATE_DIR": directory.path, "XDG_CONFIG_HOME": directory.path, "NO_COLOR": "1"]
    }

    /// `cast -d HOST:PORT --insecure play URL`, the media PyChromecast's script loads.
    func start() throws -> ChildProcess {
        try ChildProcess(
            executable: executable,
            arguments: [
                "-d", device, "--insecure", "play", "http://127.0.0.1:9/bench.mp4",
                "--content-type", "video/mp4", "--title", "Bench",
            ],
            environment: environment,
            measuresPeakMemory: true
        )
    }

    /// `cast --version`.
    func startVersion() throws -> ChildProcess {
        try ChildProcess(
            executable: executable,
            arguments: ["--version"],
            environment: environment,
            measuresPeakMemory: true
        )
    }

    /// The rows for the plays and the `--version` runs (each exit with its spawn time), the
    /// ratio against PyChromecast's median end-to-end time when there is one.
    static func rows(
        plays: [(ChildProcess.Exit, UInt64)],
        versions: [(ChildProcess.Exit, UInt64)],
        pychromecast: Double?
    ) -> [BenchmarkRow] {
        guard !plays.isEmpty, !versions.isEmpty else { return [] }
        func wall(_ runs: [(ChildProcess.Exit, UInt64)]) -> Distribution {
            Distribution(runs.map { Double($0.0.exitedAt - $0.1) / 1e9 })
        }
        func peak(_ runs: [(ChildProcess.Exit, UInt64)]) -> Distribution {
            Distribution(runs.map { Double($0.0.peakResidentKiB) * 1024 })
        }
        let play = wall(plays)
        let playPeak = peak(plays)
        var playRow = BenchmarkRow(
            name: "(a) cast play URL (the CLI) → PLAYING → exit",
            value: "\(plays.count) runs",
            median: Format.time(seconds: play.median),
            p99: Format.time(seconds: play.p99),
            note:
                "peak RSS \(Format.bytes(playPeak.median)) (max \(Format.bytes(playPeak.sorted.last ?? 0)); target ≤ 20 MiB: "
                + "\(playPeak.median <= 20 * 1024 * 1024 ? "met" : "missed")); "
                + "CPU \(Format.time(seconds: Distribution(plays.map { $0.0.cpuSeconds }).median))"
        )
        if let pychromecast {
            playRow.pychromecast = Format.time(seconds: pychromecast)
            playRow.ratio = ratioText(ours: play.median, theirs: pychromecast, target: 20)
        }
        let version = wall(versions)
        let versionRow = BenchmarkRow(
            name: "cast --version: spawn → exit",
            value: "\(versions.count) runs",
            median: Format.time(seconds: version.median),
            p99: Format.time(seconds: version.p99),
            note:
                "bounds start → main from above (target ≤ 5 ms: \(version.median <= 0.005 ? "met" : "missed")); "
                + "peak RSS \(Format.bytes(peak(versions).median))"
        )
        return [playRow, versionRow]
    }
}
