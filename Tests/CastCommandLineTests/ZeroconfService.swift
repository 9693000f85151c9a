import CastTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `_googlecast._tcp` service registered by python-zeroconf
/// (`scripts/discovery/zeroconf_register.py`) on 127.0.0.1 only, without app subtypes.
final class ZeroconfService: Sendable {
    private let process: Process
    private let input: Pipe
    private let outputURL: URL

    private init(process: Process, input: Pipe, outputURL: URL) {
        self.process = process
        self.input = input
        self.outputURL = outputURL
    }

    /// Registers the service and returns once python-zeroconf announced it. Waiting
    /// suspends (it never blocks a thread of the shared pool other suites run on).
    /// - Throws: when Python or the script is missing, or the service is not announced
    ///   within 20 s (times the run's slowdown).
    static func register(name: String, address: String, port: Int, txt: [String]) async throws -> ZeroconfService {
        let python = RepositoryPaths.python
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure("no Python at \(python) (run scripts/test.sh, or set CAST_TEST_PYTHON)")
        }
        let script = RepositoryPaths.root.appendingPathComponent("scripts/discovery/zeroconf_register.py").path
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("zeroconf-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [script, "--interface", "127.0.0.1", "--name", name, "--address", address, "--port", String(port)]
            + txt.flatMap { ["--txt", $0] } + ["--seconds", String(Int(TestTiming.scaled(60)))]
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONUNBUFFERED": "1"]) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: outputURL)
        try process.run()
        let service = ZeroconfService(process: process, input: input, outputURL: outputURL)
        let registered = await FileChangeWatch.waitUntil(outputURL.path, within: .seconds(20)) {
            service.output.contains("registered") || !process.isRunning
        }
        guard registered, service.output.contains("registered") else {
            let output = service.output
            await service.stop()
            throw TestFailure("python-zeroconf did not register \(name): \(output)")
        }
        return service
    }

    private var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }

    /// Unregisters (python-zeroconf sends goodbyes) and waits for the script to end; kills it
    /// past a deadline.
    func stop() async {
        try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
        _ = await process.waitForExit(within: .seconds(10))
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: outputURL)
    }
}
