import CastCommandLine
import CastCore
import CastEmulator
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Devices must authenticate: the roots `cast` trusts (`--trust-root`, `CAST_TRUST_ROOTS`),
/// the explicit `--insecure` / `CAST_INSECURE=1`, and the usage errors of bad values.
@Suite struct DeviceTrustTests {
    /// The fixture's environment without the trusted root.
    static func untrusting(_ fixture: DeviceFixture) -> [String: String] {
        var environment = fixture.environment
        environment["CAST_TRUST_ROOTS"] = nil
        return environment
    }

    @Test func aDeviceThatDoesNotAuthenticateIsRefusedUnlessInsecure() async throws {
        let fixture = try await DeviceFixture.start(authentication: .unavailable)
        defer { Task { await fixture.stop() } }
        var result = try await fixture.cast("play", "https://media.invalid/a.mp4")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("device authentication"), "\(result.stderr)")
        #expect(result.stderr.contains("--trust-root FILE") && result.stderr.contains("--insecure"))
        #expect(fixture.frames.inbound(type: "LAUNCH").isEmpty)
        #expect(fixture.frames.inbound(type: "LOAD").isEmpty)

        result = try await fixture.cast("--insecure", "play", "https://media.invalid/a.mp4")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: --insecure: Cast devices are not authenticated"), "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "LOAD").count == 1)

        var environment = fixture.environment
        environment["CAST_INSECURE"] = "1"
        result = try await CastProcess.run(["-d", fixture.target, "pause"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: --insecure"), "\(result.stderr)")
        #expect(fixture.frames.media?["playerState"] as? String == "PAUSED")
    }

    /// Google's roots alone do not accept the virtual device; its root from a file does.
    @Test func theTrustedRootAuthenticatesTheVirtualDevice() async throws {
        let fixture = try await DeviceFixture.start()
        defer { Task { await fixture.stop() } }
        let environment = Self.untrusting(fixture)
        var result = try await CastProcess.run(
            ["-d", fixture.target, "play", "https://media.invalid/a.mp4"],
            environment: environment
        )
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("deviceCertificateNotTrusted, 43"), "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "LAUNCH").isEmpty)

        result = try await CastProcess.run(
            ["-d", fixture.target, "--trust-root", DeviceFixture.trustRootPath, "play", "https://media.invalid/a.mp4"],
            environment: environment
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
        #expect(fixture.frames.inbound(type: "LOAD").count == 1)
    }

    @Test(arguments: [
        (["--trust-root", "/nonexistent/root.pem"], [String: String](), "--trust-root /nonexistent/root.pem"),
        ([], ["CAST_TRUST_ROOTS": "/nonexistent/a.pem"], "CAST_TRUST_ROOTS /nonexistent/a.pem"),
        ([], ["CAST_INSECURE": "yes"], "CAST_INSECURE must be 1 or 0"),
    ])
    func badTrustSettingsAreUsageErrors(arguments: [String], environment: [String: String], named: String) async {
        let output = CapturedOutput()
        var env = ["HOME": "/nonexistent"]
        env.merge(environment) { $1 }
        let code = await CastCommandLine.run(arguments + ["status"], environment: env, output: output.sink)
        #expect(code == .usage)
        #expect(output.err.contains(named), "\(output.err)")
    }

    @Test func aTrustRootFileWithoutAValidCertificateIsAUsageErrorNamingIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            ("empty.pem", "", "holds no PEM CERTIFICATE block"),
            ("text.pem", "not a certificate\n", "holds no PEM CERTIFICATE block"),
            (
                "broken.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
                "not a valid PEM certificate"
            ),
            ("large.pem", String(repeating: "x", count: 70_000), "larger than 64 KiB"),
        ]
        for (name, text, reason) in cases {
            let file = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            let output = CapturedOutput()
            let code = await CastCommandLine.run(
                ["--trust-root", file.path, "status"],
                environment: ["HOME": "/nonexistent"],
                output: output.sink
            )
            #expect(code == .usage, "\(name)")
            #expect(output.err.contains("--trust-root \(file.path): \(reason)"), "\(name): \(output.err)")
        }
    }

    /// `cast-emulator --auth-root-out FILE` writes the root its devices sign with; `cast
    /// --trust-root FILE` (and `CAST_TRUST_ROOTS`) then authenticates them, end to end across
    /// processes.
    @Test func theEmulatorsRootOutFileIsTrustedAcrossProcesses() async throws {
        let emulator = try #require(
            RepositoryPaths.builtExecutable("cast-emulator"),
            "build cast-emulator first (swift build)"
        )
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rootFile = directory.appendingPathComponent("root.pem")
        let child = try await EmulatorChild.start(emulator, rootOut: rootFile.path, directory: directory)
        defer { child.kill() }
        var environment = [
            "CAST_STATE_DIR": directory.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "HOME": directory.path,
            "CAST_REQUEST_TIMEOUT": "5",
            "CAST_DISCOVERY_INTERFACES": "lo",
        ]
        let target = "\(child.address):8009"
        var result = try await CastProcess.run(
            ["-d", target, "play", "https://media.invalid/a.mp4"],
            environment: environment
        )
        #expect(result.status == 1, "Google's roots alone: \(result.stderr)")
        #expect(result.stderr.contains("--trust-root FILE"), "\(result.stderr)")

        result = try await CastProcess.run(
            ["-d", target, "--trust-root", rootFile.path, "play", "https://media.invalid/a.mp4"],
            environment: environment
        )
        #expect(result.status == 0, "\(result.stderr)")

        environment["CAST_TRUST_ROOTS"] = "/nonexistent-but-unused-entry-is-an-error:\(rootFile.path)"
        result = try await CastProcess.run(["-d", target, "pause"], environment: environment)
        #expect(result.status == 2, "every listed file must be usable: \(result.stderr)")
        environment["CAST_TRUST_ROOTS"] = ":\(rootFile.path):"
        result = try await CastProcess.run(["-d", target, "pause"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        result = try await CastProcess.run(["-d", target, "status", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("PAUSED"), "\(result.stdout)")
    }
}

/// A `cast-emulator` child process with one device on a random loopback address, killed
/// (SIGKILL) by its owner.
final class EmulatorChild: @unchecked Sendable {
    // Sendable: the Process is only touched from the test's task.
    let process: Process
    let address: String
    let stderrURL: URL

    private init(process: Process, address: String, stderrURL: URL) {
        self.process = process
        self.address = address
        self.stderrURL = stderrURL
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Starts the emulator with `--auth-root-out rootOut` and waits (at most 60 s, scaled) for
    /// its `ready` line, retrying on another address while one is taken.
    static func start(_ executable: String, rootOut: String, directory: URL) async throws -> EmulatorChild {
        for attempt in 0..<6 {
            let address = "127.0.0.\(Int.random(in: 50...250))"
            let stderrURL = directory.appendingPathComponent("emulator-\(attempt).err")
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [
                "--devices", "1", "--address", address, "--media", "simulate", "--auth-root-out", rootOut,
            ]
            process.environment = [
                "PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no",
                "CAST_EMULATOR_STATE_DIR": directory.appendingPathComponent("emulator-state").path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let child = EmulatorChild(process: process, address: address, stderrURL: stderrURL)
            _ = await FileChangeWatch.waitUntil(stderrURL.path, within: .seconds(60)) {
                !process.isRunning || containsLine("ready", in: child.stderr)
            }
            if containsLine("ready", in: child.stderr) { return child }
            let text = child.stderr
            child.kill()
            guard text.contains("in use") else { throw TestFailure("cast-emulator did not start:\n\(text)") }
        }
        throw TestFailure("cast-emulator found no free loopback address")
    }

    func kill() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }
}
