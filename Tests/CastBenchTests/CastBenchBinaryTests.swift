import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `cast-bench` (debug) with cheap arguments: the options, one fast group,
/// and the PyChromecast group without Python. Nothing here looks at the figures.
@Suite struct CastBenchBinaryTests {
    @Test func helpListsEveryGroup() async throws {
        let result = try await CastBench.run(["--help"])
        #expect(result.status == 0)
        for group in ["frames", "protobuf", "json", "tls", "session", "pychromecast", "--rows", "--quick"] {
            #expect(result.stdout.contains(group), "help lacks \(group)")
        }
    }

    @Test(arguments: [
        (["--rows", "nosuch"], "unknown group nosuch"),
        (["--rows"], "error: cast-bench: --rows needs a value (LIST)"),
        (["--fast"], "error: cast-bench: unknown option '--fast'"),
        (["--fleet-sizes", "0"], "--fleet-sizes: \"0\" is not a list of counts from 1 to 10000"),
    ])
    func usageErrorsExitWithTwo(arguments: [String], message: String) async throws {
        let result = try await CastBench.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func quickRunOfOneGroupPrintsOnlyItsRows() async throws {
        let result = try await CastBench.run(["--quick", "--rows", "frames"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("benchmark") == true)
        #expect(lines.contains { $0.hasPrefix("frame encode (200 B body)") })
        #expect(lines.contains { $0.hasPrefix("frame decode (200 B body)") })
        #expect(!lines.contains { $0.hasPrefix("CastMessage") || $0.hasPrefix("TLS") })
        #expect(!result.stdout.contains("failed"))
    }

    /// The peak-memory figures are the child's own: an idle shell peaks far below
    /// `cast-bench`'s size, a shell holding a 40 MB string above 40 MB, and the exit status
    /// comes through the tracing. `wait4`'s `ru_maxrss` alone reports at least the parent's
    /// peak for a `posix_spawn` child, which is why the rows trace.
    @Test func childPeakMemoryIsTheChildsOwn() async throws {
        func measure(_ script: String) async throws -> (status: Int, peak: Int, maxrss: Int) {
            let result = try await CastBench.run(["--measure-child", "/bin/sh", "-c", script])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Int]
            let fields = try #require(object, "stdout: \(result.stdout)")
            return (fields["status"] ?? -1, fields["peakKiB"] ?? -1, fields["maxrssKiB"] ?? -1)
        }
        let idle = try await measure("exit 3")
        #expect(idle.status == 3)
        #expect(idle.peak > 0 && idle.peak < 8 * 1024, "idle shell peak \(idle.peak) KiB")
        #expect(idle.maxrss > idle.peak, "ru_maxrss \(idle.maxrss) KiB")
        let holding = try await measure("x=$(head -c 40000000 /dev/zero | tr '\\0' a); exit 0")
        #expect(holding.status == 0)
        #expect(holding.peak >= 40_000 * 1000 / 1024, "a shell holding 40 MB peaked at \(holding.peak) KiB")
    }

    /// Without Python the group still measures swift-cast (device and client processes)
    /// and says the PyChromecast column is unavailable.
    @Test func pychromecastGroupWithoutPythonReportsUnavailable() async throws {
        let result = try await CastBench.run(
            ["--quick", "--rows", "pychromecast"],
            environment: ["CAST_BENCH_PYTHON": ""],
            timeout: 240
        )
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for row in ["(a) start", "(b) PAUSE/PLAY", "(c) MEDIA_STATUS frame decode", "pychromecast column"] {
            #expect(lines.contains { $0.hasPrefix(row) }, "no row \(row) in:\n\(result.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("pychromecast column") && $0.contains("CAST_BENCH_PYTHON") })
        #expect(!lines.contains { $0.contains("failed") }, "\(result.stdout)")
    }
}

/// The built binary as a child process with a deadline (SIGKILL: Swift Testing children
/// inherit a mask that blocks SIGTERM).
enum CastBench {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var binary: String? {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundleDirectory.appendingPathComponent("cast-bench").path,
            bundleDirectory.deletingLastPathComponent().appendingPathComponent("cast-bench").path,
            repositoryRoot.appendingPathComponent(".build/debug/cast-bench").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Double = 60
    ) async throws
        -> Result
    {
        guard let binary else { throw CastBenchFailure("cast-bench was not built; run 'swift build' first") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-bench-test-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdoutURL = directory.appendingPathComponent("stdout")
        let stderrURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if !(await process.waitForExit(within: .milliseconds(Int64(timeout * 1000)))) {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            Issue.record("cast-bench \(arguments) did not finish within \(timeout) s; killed")
        }
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        )
    }
}

struct CastBenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
