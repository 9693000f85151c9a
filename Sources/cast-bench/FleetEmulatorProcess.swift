import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `cast-emulator` child process running a fleet of devices on consecutive loopback
/// addresses with the real ports (shared by the devices), stopped by its process id.
final class FleetEmulatorProcess {
    /// The child's process id.
    let pid: pid_t
    /// Seconds from spawning to the emulator's `ready` line.
    let startSeconds: Double
    /// The devices' addresses, in order, as the emulator reported them.
    let addresses: [String]

    private let process: Process
    private let logURL: URL

    /// Starts `count` devices from `firstAddress` and waits (up to `deadline`) until they
    /// all listen.
    /// - Parameter statusInterval: seconds between unsolicited `MEDIA_STATUS` while playing.
    /// - Throws: ``BenchmarkFailure`` with the end of the emulator's output when it exits
    ///   or does not get ready in time.
    init(
        executable: URL,
        count: Int,
        firstAddress: String,
        statusInterval: Double?,
        deadline: Duration = .seconds(180)
    ) async throws {
        let logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("cast-bench-fleet-\(getpid())-\(count).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        // Shared ports: one listening socket per port for the whole fleet, without which
        // 10,000 devices (30,000 sockets) do not fit a 20,000-descriptor limit.
        // Simulated media: the clip the sessions load is not served anywhere, and the
        // rows measure the Cast protocol, not media reads.
        var arguments = ["--devices", "\(count)", "--address", firstAddress, "--shared-ports", "--media", "simulate"]
        if let statusInterval { arguments += ["--status-interval", "\(statusInterval)"] }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment

        let clock = ContinuousClock()
        let begin = clock.now
        try process.run()
        self.process = process
        self.logURL = logURL
        self.pid = process.processIdentifier

        var lines: [Substring] = []
        while true {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n")
            if lines.contains("ready") { break }
            if !process.isRunning || clock.now - begin > deadline {
                let reason = process.isRunning ? "not ready within \(deadline)" : "exited"
                Self.kill(process)
                try? FileManager.default.removeItem(at: logURL)
                throw BenchmarkFailure(
                    "cast-emulator \(reason): \(lines.suffix(3).joined(separator: " | "))"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        startSeconds = (clock.now - begin).seconds
        addresses = lines.compactMap { line in
            guard line.hasPrefix("device "), let range = line.range(of: " address=") else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    /// Resource figures of the emulator now.
    func sample() -> FleetProcessSample? { FleetProcessSample.of(pid: pid) }

    /// Sends SIGTERM, waits up to `deadline` for the exit, then sends SIGKILL.
    func stop(deadline: Duration = .seconds(30)) async {
        if process.isRunning { Glibc.kill(pid, SIGTERM) }
        let clock = ContinuousClock()
        let begin = clock.now
        while process.isRunning && clock.now - begin < deadline {
            try? await Task.sleep(for: .milliseconds(100))
        }
        Self.kill(process)
        try? FileManager.default.removeItem(at: logURL)
    }

    private static func kill(_ process: Process) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
