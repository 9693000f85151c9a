import CastEmulator
import CastNet
import CastNetCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One virtual Cast device in a process of its own, shared by both sides of the
/// cross-process rows: the release `cast-emulator` beside `cast-bench` (or the one named by
/// `CAST_BENCH_EMULATOR`), else `cast-bench --serve-device`, which runs the same
/// `CastEmulator` code.
///
/// The device has its own loopback address and the real ports (8009, 8008, 8443): on any
/// other Cast port PyChromecast takes the device for an audio group and skips the
/// `eureka_info` request it makes to a Chromecast. It has no simulated buffering (so the
/// figures measure the senders, not a pretend player) and the control endpoint on, used
/// to reboot it between end-to-end runs so that every run really launches the app.
final class VirtualDeviceProcess {
    let address: String
    let castPort: Int
    let httpPort: Int
    let deviceID = "0123456789abcdef0123456789abcdef"
    /// What runs the device, for the table's notes.
    let runner: String
    private let child: ChildProcess
    private let directory: URL

    private init(address: String, castPort: Int, httpPort: Int, runner: String, child: ChildProcess, directory: URL) {
        self.address = address
        self.castPort = castPort
        self.httpPort = httpPort
        self.runner = runner
        self.child = child
        self.directory = directory
    }

    deinit {
        child.terminate()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the device on a random 127.x.y.z address, trying a few addresses.
    static func start() throws -> VirtualDeviceProcess {
        var lastError = ""
        for _ in 0..<5 {
            let address = "127.\(Int.random(in: 100...199)).\(Int.random(in: 0...255)).\(Int.random(in: 2...254))"
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("cast-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let config = directory.appendingPathComponent("device.json")
            let json = """
                {"devices": [{"name": "Bench", "id": "0123456789abcdef0123456789abcdef", "address": "\(address)",
                "bufferingMs": 0, "control": true}]}
                """
            try Data(json.utf8).write(to: config)

            let (executable, arguments, runner) = launcher(config: config.path)
            let child = try ChildProcess(
                executable: executable,
                arguments: arguments,
                environment: ["SWIFT_BACKTRACE": "enable=no"]
            )
            let (lines, ready) = child.readStandardError(until: { $0 == "ready" }, timeout: .seconds(30))
            if ready, let line = lines.first(where: { $0.hasPrefix("device ") }),
                let cast = field("cast", in: line), let http = field("http", in: line)
            {
                return VirtualDeviceProcess(
                    address: address,
                    castPort: cast,
                    httpPort: http,
                    runner: runner,
                    child: child,
                    directory: directory
                )
            }
            child.terminate()
            try? FileManager.default.removeItem(at: directory)
            lastError = lines.joined(separator: " | ")
        }
        throw BenchmarkFailure("the virtual device did not start: \(lastError)")
    }

    /// The release emulator beside this binary, else this binary in device mode.
    private static func launcher(config: String) -> (String, [String], String) {
        let own = ownExecutable
        let sibling = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent("cast-emulator").path
        let named = ProcessInfo.processInfo.environment["CAST_BENCH_EMULATOR"]
        if let emulator = named ?? (FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil) {
            return (emulator, ["--config", config, "--media", "simulate"], "cast-emulator process")
        }
        return (own, ["--serve-device", config], "cast-bench --serve-device process")
    }

    /// This process's executable.
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func field(_ name: String, in line: String) -> Int? {
        for word in line.split(separator: " ") where word.hasPrefix("\(name)=") {
            return Int(word.dropFirst(name.count + 1))
        }
        return nil
    }

    /// Drops every connection and starts the receiver afresh (no app running), through the
    /// device's control endpoint.
    func reboot() async throws {
        let response = try await HTTPClient().execute(
            .post,
            url: "http://\(address):\(httpPort)/control/faults",
            headers: ["X-Cast-Control": "1"],
            body: Array(#"{"reboot": true}"#.utf8)
        )
        guard response.status.code == 200 else {
            throw BenchmarkFailure("device reboot: HTTP \(response.status.code)")
        }
    }
}

/// `cast-bench --serve-device CONFIG`: runs the devices of an emulator configuration file
/// and reports them on standard error as `cast-emulator` does. Stops when the parent
/// process goes away.
enum DeviceHost {
    static func run(configPath: String) async -> Int32 {
        func report(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        let parent = getppid()
        do {
            guard let data = FileManager.default.contents(atPath: configPath) else {
                throw BenchmarkFailure("cannot read \(configPath)")
            }
            let fleet = DeviceFleet(log: nil)
            let devices = try await fleet.start(FleetConfiguration(json: Array(data)))
            for device in devices {
                let ports = device.ports
                report(
                    "device \"\(device.configuration.identity.friendlyName)\" address=\(device.options.address)"
                        + " cast=\(ports?.cast ?? 0) http=\(ports?.http ?? 0) https=\(ports?.https ?? 0)"
                )
            }
            report("ready")
            while getppid() == parent {
                try? await Task.sleep(for: .seconds(1))
            }
            await fleet.stop()
            return 0
        } catch {
            report("cast-bench --serve-device: \(error)")
            return 69
        }
    }
}
