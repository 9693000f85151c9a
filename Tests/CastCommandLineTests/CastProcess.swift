import CastAuth
import CastCore
import CastCrypto
import CastNet
import CastSenderTestSupport
import CastSync
import CastTestSupport
import CastTime
import Foundation
import Testing

@testable import CastEmulator

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `cast` binary as a child process with a deadline.
enum CastProcess {
    /// The binary: `CAST_BINARY`, else next to the test bundle, else `.build/debug/cast`.
    static var binary: String? { RepositoryPaths.builtExecutable("cast", overriddenBy: "CAST_BINARY") }

    /// What a finished run produced.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A started child.
    final class Child: @unchecked Sendable {
        // Sendable: the Process is only touched from the test's task.
        let process: Process
        let stdoutURL: URL
        let stderrURL: URL

        init(process: Process, stdoutURL: URL, stderrURL: URL) {
            self.process = process
            self.stdoutURL = stdoutURL
            self.stderrURL = stderrURL
        }

        var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Waits for the exit, killing the child (SIGKILL) at the deadline.
        func finish(within seconds: Double) async -> Result {
            if !(await process.waitForExit(within: .milliseconds(Int64(seconds * 1000)))) {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                Issue.record("cast \(process.arguments ?? []) did not finish within \(seconds) s; killed")
                return Result(status: -1, stdout: stdout, stderr: stderr)
            }
            process.waitUntilExit()
            return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        }
    }

    /// The sanitizer runtimes' settings, passed on to the child.
    static let sanitizerOptions: Set = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"]

    /// Starts `cast arguments` with `environment` added to a clean one (plus the sanitizer
    /// runtimes' settings of the test process); through `launcher` (a program and its first
    /// arguments, such as `unshare -n`) when given.
    static func start(_ arguments: [String], environment: [String: String], launcher: [String] = []) throws -> Child {
        guard let binary else {
            throw TestFailure("the cast binary was not found; run 'swift build' before 'swift test'")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stdoutURL = directory.appendingPathComponent("stdout")
        let stderrURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [binary] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
        }
        var env = ["PATH": "/usr/bin:/bin", "SWIFT_BACKTRACE": "enable=no", "NO_COLOR": "1"]
        // A sanitized test build runs a sanitized binary: it needs the same runtime options
        // (ASAN_OPTIONS=detect_leaks=0, ...) or LeakSanitizer fails it at exit.
        for (key, value) in ProcessInfo.processInfo.environment where sanitizerOptions.contains(key) {
            env[key] = value
        }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Child(process: process, stdoutURL: stdoutURL, stderrURL: stderrURL)
    }

    /// Runs `cast arguments` to the end (at most `timeout` seconds).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        launcher: [String] = [],
        timeout: Double = TestTiming.scaled(60)
    ) async throws -> Result {
        try await start(arguments, environment: environment, launcher: launcher).finish(within: timeout)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Keeps every frame a virtual device logs.
final class FrameRecorder: FrameLogSink {
    private let records = Locked<[FrameLogRecord]>([])

    func record(_ record: FrameLogRecord) { records.withLock { $0.append(record) } }

    var all: [FrameLogRecord] { records.withLock { $0 } }

    /// Inbound messages of a type (`LAUNCH`, `LOAD`, ...), parsed.
    func inbound(type: String) -> [[String: Any]] {
        all.filter { $0.direction == .inbound }.compactMap { record in
            guard let object = try? JSONSerialization.jsonObject(with: Data(record.payload.utf8)) as? [String: Any],
                object["type"] as? String == type
            else { return nil }
            return object
        }
    }

    /// The last outbound status of a type (`MEDIA_STATUS`, `RECEIVER_STATUS`), parsed.
    func lastStatus(_ type: String) -> [String: Any]? {
        for record in all.reversed() where record.direction == .outbound {
            guard let object = try? JSONSerialization.jsonObject(with: Data(record.payload.utf8)) as? [String: Any],
                object["type"] as? String == type
            else { continue }
            return object
        }
        return nil
    }

    /// The device's last reported media status entry.
    var media: [String: Any]? {
        (lastStatus("MEDIA_STATUS")?["status"] as? [[String: Any]])?.first
    }

    /// The device's last reported volume.
    var volume: [String: Any]? {
        (lastStatus("RECEIVER_STATUS")?["status"] as? [String: Any])?["volume"] as? [String: Any]
    }
}

/// A virtual device on a random loopback address with ephemeral ports, and a private state
/// directory for the `cast` processes that talk to it.
struct DeviceFixture {
    static let echoNamespace = "urn:x-cast:com.example.echo"

    let device: VirtualDevice
    let frames: FrameRecorder
    let ports: VirtualDevice.Ports
    let address: String
    let stateDirectory: URL

    static func start(
        name: String = "Test Room",
        address: String = "127.0.0.\(Int.random(in: 50...250))",
        mediaDuration: Double = 600,
        profile: DeviceProfile? = nil,
        setupPort: Int = 0,
        authentication: DeviceAuthentication = .generated,
        hostile rewrite: HostilePayloads.Rewrite? = nil
    ) async throws -> DeviceFixture {
        var configuration = VirtualDeviceConfiguration(
            identity: DeviceIdentity(
                friendlyName: name,
                deviceID: UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            ),
            profile: profile
        )
        configuration.bufferingDelay = .zero
        // The device closes a connection silent for its liveness timeout (20 s); a sender
        // starved of CPU by the whole suite on two cores can miss its 5 s pings that long.
        configuration.livenessTimeout = TestTiming.patience
        configuration.deviceAuthentication = authentication
        configuration.defaultMediaDuration = mediaDuration
        configuration.applications = configuration.applications.map { app in
            var app = app
            if app.appID == ReceiverAppDefinition.defaultMediaReceiver.appID {
                app.namespaces.append(CastNamespace(rawValue: echoNamespace))
            }
            return app
        }
        let frames = FrameRecorder()
        // A slow (sanitized) run may take a while between connecting and sending.
        var options = DeviceServerOptions.ephemeral(address: address)
        options.httpPort = setupPort
        options.requestTimeout = TestTiming.patience
        options.frameTimeout = options.frameTimeout.map(TestTiming.scaled)
        let engineConfiguration = configuration
        let device = VirtualDevice(
            configuration: configuration,
            options: options,
            clock: SystemCastClock(),
            log: frames,
            advertiser: nil,
            certificateKey: sharedKey
        ) { now -> any HostedEngine in
            let engine = VirtualDeviceEngine(configuration: engineConfiguration, at: now)
            // A hostile device: the same engine, its statuses rewritten on the way out.
            guard let rewrite else { return engine }
            return OutgoingRewriteEngine(inner: engine, rewrite: HostilePayloads.messageRewrite(rewrite))
        }
        let ports = try await device.start()
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("cast-cli-state-\(UUID().uuidString)")
        return DeviceFixture(device: device, frames: frames, ports: ports, address: address, stateDirectory: state)
    }

    /// `HOST:PORT` for `-d`.
    var target: String { "\(address):\(ports.cast)" }

    /// The environment for `cast`: private state and config directories, no default device.
    var environment: [String: String] {
        [
            "CAST_STATE_DIR": stateDirectory.path,
            "XDG_CONFIG_HOME": stateDirectory.appendingPathComponent("config").path,
            "HOME": stateDirectory.path,
            // Generous: the in-process device shares two cores with a thousand other tests.
            "CAST_REQUEST_TIMEOUT": "20",
            // Any discovery stays on loopback: tests never send multicast off the machine.
            "CAST_DISCOVERY_INTERFACES": "lo",
            // The device authenticates with this process's generated chain: `cast` trusts its root.
            "CAST_TRUST_ROOTS": Self.trustRootPath,
        ]
    }

    /// A PEM file holding the root the virtual devices of this process sign with
    /// (`VirtualDeviceAuthority.shared`), written once; what `cast --trust-root` reads.
    static let trustRootPath: String = {
        guard let root = VirtualDeviceAuthority.shared?.root else {
            fatalError("no device-authentication chain could be generated")
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cast-cli-root-\(UUID().uuidString).pem"
        )
        do {
            try root.pemString.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            fatalError("cannot write \(url.path): \(error)")
        }
        return url.path
    }()

    /// Runs `cast -d HOST:PORT arguments`.
    func cast(_ arguments: String..., timeout: Double = TestTiming.scaled(60)) async throws -> CastProcess.Result {
        try await CastProcess.run(["-d", target] + arguments, environment: environment, timeout: timeout)
    }

    func stop() async {
        await device.stop()
        try? FileManager.default.removeItem(at: stateDirectory)
    }

    static let sharedKey: PrivateKey = {
        do {
            return try PrivateKey.generateRSA(bits: 2048)
        } catch {
            fatalError("cannot generate a test key: \(error)")
        }
    }()
}
