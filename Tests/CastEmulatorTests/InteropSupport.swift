import CastCore
import CastCrypto
import CastEmulator
import CastNet
import CastSync
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The suites that start child processes (the emulator binary, Python clients), run one at
/// a time so they do not crowd the shared machine while other suites run.
@Suite(.serialized) struct EmulatorProcessSuites {}

/// Paths and helpers shared by the interop tests, which run real third-party Cast clients.
enum Interop {
    /// The Python with pychromecast and catt: `CAST_TEST_PYTHON`, else `<repo>/.venv/bin/python`.
    static var python: String { RepositoryPaths.python }

    /// A script under `scripts/interop/`, or under `folder` of `scripts/`.
    static func script(_ name: String, folder: String = "interop") -> String {
        RepositoryPaths.root.appendingPathComponent("scripts/\(folder)/\(name)").path
    }

    /// Starts one real virtual device on a random `127.0.0.x` (50...250) with the real
    /// ports 8009/8008/8443, trying other addresses while one is taken; it plays media as
    /// `mediaMode` says (simulated unless told).
    static func startDevice(
        name: String,
        model: String = "Chromecast",
        profile: DeviceProfile? = nil,
        mediaMode: MediaMode = .simulate,
        advertiser: (any DeviceAdvertiser)? = nil
    ) async throws -> VirtualDevice {
        var lastError: (any Error)?
        for _ in 0..<8 {
            let address = "127.0.0.\(Int.random(in: 50...250))"
            let identity = DeviceIdentity(
                friendlyName: name,
                deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                modelName: model
            )
            var configuration = VirtualDeviceConfiguration(identity: identity, profile: profile)
            configuration.mediaMode = mediaMode
            let device = VirtualDevice(
                configuration: configuration,
                options: DeviceServerOptions(address: address),
                advertiser: advertiser,
                certificateKey: sharedKey
            )
            do {
                try await device.start()
                return device
            } catch let error as TCPError where error.code == .addressInUse {
                lastError = error
            }
        }
        throw lastError ?? TCPError.closed
    }

    static let sharedKey: PrivateKey = {
        do {
            return try PrivateKey.generateRSA(bits: 2048)
        } catch {
            fatalError("cannot generate a test key: \(error)")
        }
    }()

    /// Runs a Python interop script and decodes its JSON report.
    static func runScript(
        _ name: String,
        arguments: [String],
        deadline: Duration = .seconds(120)
    ) async throws
        -> ScriptReport
    {
        let python = python
        try #require(
            FileManager.default.isExecutableFile(atPath: python),
            "no Python at \(python): set CAST_TEST_PYTHON or create .venv with scripts/requirements-interop.txt"
        )
        let result = try await ChildProcess.run(python, [script(name)] + arguments, deadline: deadline)
        let lastLine = result.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        guard let json = try? JSONValue(parsing: lastLine) else {
            Issue.record(
                "\(name) printed no JSON report (status \(result.status)):\n\(result.standardOutput)\n\(result.standardError)"
            )
            return ScriptReport(ok: false, steps: [], error: result.standardError)
        }
        let steps = (json["steps"]?.arrayValue ?? []).map {
            ScriptReport.Step(
                name: $0["name"]?.stringValue ?? "?",
                ok: $0["ok"]?.boolValue ?? false,
                detail: $0["detail"]?.stringValue ?? ""
            )
        }
        return ScriptReport(ok: json["ok"]?.boolValue ?? false, steps: steps, error: json["error"]?.stringValue)
    }
}

/// What an interop script reported.
struct ScriptReport {
    struct Step {
        var name: String
        var ok: Bool
        var detail: String
    }

    var ok: Bool
    var steps: [Step]
    var error: String?

    /// Records an issue for every failed step and for a script error.
    func expectSteps(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        if let error {
            Issue.record("script error: \(error)", sourceLocation: sourceLocation)
        }
        for name in names {
            guard let step = steps.first(where: { $0.name == name }) else {
                Issue.record("step \"\(name)\" did not run", sourceLocation: sourceLocation)
                continue
            }
            #expect(step.ok, "step \"\(name)\" failed: \(step.detail)", sourceLocation: sourceLocation)
        }
        #expect(ok, sourceLocation: sourceLocation)
    }
}

/// A child process with a deadline, killed with SIGKILL (children of Swift Testing inherit a
/// mask that blocks SIGTERM and SIGINT).
final class ChildProcess: Sendable {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    let process: Process
    private let output = ByteCollector()
    private let errors = ByteCollector()
    private let outputPipe = Pipe()
    private let errorPipe = Pipe()
    /// Notified at each chunk of standard error and at the exit.
    private let changes = ChangeSignal()

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["SWIFT_BACKTRACE"] = "enable=no"
        merged["PYTHONUNBUFFERED"] = "1"
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        let output = self.output
        let errors = self.errors
        let changes = self.changes
        outputPipe.fileHandleForReading.readabilityHandler = { handle in
            output.append(handle.availableData)
        }
        errorPipe.fileHandleForReading.readabilityHandler = { handle in
            errors.append(handle.availableData)
            changes.notify()
        }
        process.notifyOnExit(changes)
        try process.run()
    }

    var standardOutput: String { output.text }
    var standardError: String { errors.text }

    /// Waits for the process to exit, killing it at `deadline`.
    func wait(deadline: Duration) async -> Int32 {
        _ = await process.waitForExit(within: deadline)
        kill()
        return process.terminationStatus
    }

    /// Waits until standard error holds the line `line` (a whole line, not a substring), for at
    /// most `timeout`.
    func waitForErrorLine(_ line: String, timeout: Duration) async -> Bool {
        try? await changes.wait(until: "the line \(line)", within: timeout) { [self] in
            containsLine(line, in: standardError) || !process.isRunning
        }
        return containsLine(line, in: standardError)
    }

    /// Kills the process with SIGKILL, reaps it and collects the rest of its output.
    func kill() {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        for (pipe, collector) in [(outputPipe, output), (errorPipe, errors)] {
            let handle = pipe.fileHandleForReading
            guard handle.readabilityHandler != nil else { continue }
            handle.readabilityHandler = nil
            // Whatever the handler had not taken yet (the writer is gone, so this ends).
            if let rest = try? handle.readToEnd() { collector.append(rest) }
        }
    }

    /// Runs a process to completion within `deadline`.
    static func run(_ executable: String, _ arguments: [String], deadline: Duration) async throws -> Result {
        let child = try ChildProcess(executable, arguments)
        let status = await child.wait(deadline: deadline)
        return Result(status: status, standardOutput: child.standardOutput, standardError: child.standardError)
    }
}

/// Bytes appended by a pipe's reader thread and read by a test.
final class ByteCollector: Sendable {
    private let bytes = Locked<[UInt8]>([])

    func append(_ data: Data) {
        bytes.withLock { $0.append(contentsOf: data) }
    }

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }
}
