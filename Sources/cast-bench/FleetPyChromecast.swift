import CastCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `scripts/bench/fleet_pychromecast.py` measured in its own process.
struct FleetPyChromecastResult {
    var count: Int
    var connected: Int
    var connectSeconds: Double?
    var playing: Int
    var baselineBytes: Int?
    var residentBytes: Int?
    var threads: Int?
    var descriptors: Int?
    var cpuPercent: Double?
    var statusesPerSecond: Double?
    /// Devices whose first `play_media` did not play and were asked again.
    var playRetries = 0
    /// `play_media` calls that raised.
    var playErrors = 0
    /// Why the run fell short, or `nil`.
    var error: String?

    /// Runs the script against `count` devices from `firstAddress`; gives up after
    /// `deadline` (the child is then killed).
    static func run(
        python: URL,
        script: URL,
        count: Int,
        firstAddress: String,
        steadySeconds: Int,
        deadline: Duration
    ) async throws -> FleetPyChromecastResult {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("cast-bench-fleet-py-\(getpid())-\(count).json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let errors = output.deletingPathExtension().appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let process = Process()
        process.executableURL = python
        process.arguments = [
            script.path, "--first-address", firstAddress, "--count", "\(count)", "--seconds", "\(steadySeconds)",
        ]
        process.standardOutput = handle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let clock = ContinuousClock()
        let begin = clock.now
        while process.isRunning && clock.now - begin < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return FleetPyChromecastResult(
                count: count,
                connected: 0,
                playing: 0,
                error: "no result within \(deadline)"
            )
        }
        let bytes = FileManager.default.contents(atPath: output.path) ?? Data()
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard let json = try? JSONValue(parsing: line), json.objectValue != nil else {
            return FleetPyChromecastResult(
                count: count,
                connected: 0,
                playing: 0,
                error: "script exited with status \(process.terminationStatus) and no result: \(lastLine(of: errors))"
            )
        }
        return FleetPyChromecastResult(
            count: count,
            connected: json["connected"]?.intValue ?? 0,
            connectSeconds: json["connectSeconds"]?.doubleValue,
            playing: json["playing"]?.intValue ?? 0,
            baselineBytes: json["baselineRSSKiB"]?.intValue.map { $0 * 1024 },
            residentBytes: json["rssKiB"]?.intValue.map { $0 * 1024 },
            threads: json["threads"]?.intValue,
            descriptors: json["fds"]?.intValue,
            cpuPercent: json["cpuPercent"]?.doubleValue,
            statusesPerSecond: json["statusesPerSecond"]?.doubleValue,
            playRetries: json["playRetries"]?.intValue ?? 0,
            playErrors: json["playErrors"]?.intValue ?? 0,
            error: json["error"]?.stringValue
        )
    }

    /// The last non-empty line of a file, for a failure note.
    private static func lastLine(of file: URL) -> String {
        let text = String(decoding: FileManager.default.contents(atPath: file.path) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? "no output"
    }
}
