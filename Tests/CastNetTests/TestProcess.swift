import CastSync
import CastTestSupport
import Foundation
import Testing

/// A child process for interop tests: its output is collected line by line, it can be
/// waited for with a deadline, and it is killed with SIGKILL (Swift Testing children
/// inherit a mask that blocks SIGTERM).
final class TestProcess: Sendable {
    private let process: Process
    private let input: Pipe
    private let output = OutputBuffer()

    private final class OutputBuffer: Sendable {
        let state = Locked<(lines: [String], partial: String, error: String, ended: Bool)>(([], "", "", false))
        /// Notified at each chunk of output, at its end and at the exit.
        let changes = ChangeSignal()
    }

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        env["PYTHONUNBUFFERED"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdout = Pipe()
        let stderr = Pipe()
        input = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input
        for pipe in [stdout, stderr, input] { keepFromOtherChildren(pipe) }
        self.process = process
        let output = output
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                output.state.withLock { $0.ended = true }
                output.changes.notify()
                return
            }
            output.state.withLock { state in
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    state.lines.append(String(state.partial[..<newline]))
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                }
            }
            output.changes.notify()
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                return
            }
            output.state.withLock { $0.error += String(decoding: data, as: UTF8.self) }
            output.changes.notify()
        }
        process.notifyOnExit(output.changes)
        try process.run()
    }

    deinit {
        kill()
    }

    var lines: [String] { output.state.withLock { $0.lines } }
    var standardError: String { output.state.withLock { $0.error } }
    var isRunning: Bool { process.isRunning }
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// Waits until a line satisfies `predicate`, the process exits, or the timeout passes.
    /// Each new line wakes the wait; after the exit it ends with the end of the output.
    func waitForLine(timeout: Duration, _ predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        let output = output
        let process = process
        try? await output.changes.wait(until: "a line", within: timeout) {
            let (lines, ended) = output.state.withLock { ($0.lines, $0.ended) }
            return lines.contains(where: predicate) || (ended && !process.isRunning)
        }
        return lines.first(where: predicate)
    }

    /// Waits for the process to exit; kills it when the timeout passes first.
    @discardableResult
    func waitForExit(timeout: Duration) async -> Int32? {
        // Checked once more after the deadline: a test task that was kept off the CPU past
        // the deadline must not call a finished child timed out.
        if await process.waitForExit(within: timeout) || !process.isRunning { return process.terminationStatus }
        kill()
        return nil
    }

    func send(_ line: String) {
        writeIgnoringBrokenPipe(input.fileHandleForWriting.fileDescriptor, Array((line + "\n").utf8))
    }

    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}

enum TestEnvironment {
    /// The Python with pychromecast and zeroconf: `CAST_TEST_PYTHON`, else `<repo>/.venv/bin/python`.
    static func python() throws -> String {
        let path = RepositoryPaths.python
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("no Python interpreter at \(path); run scripts/test.sh or set CAST_TEST_PYTHON")
        }
        return path
    }

    static func script(_ name: String) -> String {
        RepositoryPaths.root.appendingPathComponent("scripts/discovery/\(name)").path
    }

    /// A built executable of this package, next to the test bundle.
    static func productExecutable(_ name: String) throws -> String {
        guard let path = RepositoryPaths.builtExecutable(name) else {
            throw TestSetupError("executable \(name) not found near the test bundle; run swift build first")
        }
        return path
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
