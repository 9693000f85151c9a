import CastArguments
import Foundation

/// The options of the `fleet` group, taken out of the command line before group names are read.
struct FleetSettings: Sendable {
    /// Device counts, one measurement each.
    var sizes = [100, 1000, 10_000]
    /// How many SDK sessions start at the same time.
    var concurrentStarts = 256
    /// Measurements per size, for the run-to-run spread.
    var runs = 1
    /// Where to write the SVG plot of the figures against N, if anywhere.
    var plotPath: String?
    /// Seconds of steady playback over which CPU is measured.
    var steadySeconds = 20
    /// The address of the first virtual device; the others follow, skipping `.0` and `.255`.
    /// Away from `127.0.0.x` so that other loopback devices on the machine do not collide.
    var firstAddress = "127.0.100.1"
    /// Seconds between the devices' unsolicited `MEDIA_STATUS`.
    var statusInterval = 1.0
    /// Whether pychromecast runs beside the SDK.
    var includesPyChromecast = true

    /// The options of the `fleet` group (run only when named).
    static let options: [OptionSpec] = [
        .value("fleet-sizes", "N,N,...", help: "Fleet: device counts, 1 to 10000 (default 100,1000,10000)."),
        .value("fleet-runs", "K", help: "Fleet: measurements per count, for the spread (default 1)."),
        .value("fleet-concurrency", "C", help: "Fleet: SDK sessions starting at once (default 256)."),
        .value("fleet-plot", "FILE", help: "Fleet: also write the figures against N as an SVG plot."),
        .value("fleet-seconds", "S", help: "Fleet: steady window in seconds (default 20)."),
        .value("fleet-address", "A", help: "Fleet: first device address (default 127.0.100.1)."),
        .flag("fleet-no-pychromecast", help: "Fleet: skip the pychromecast rows."),
    ]

    init() {}

    /// The settings the fleet options of `parsed` give.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        let program = BenchmarkOptions.program
        if let text = parsed.value("fleet-sizes") {
            let sizes = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Int($0) }
            guard !sizes.isEmpty, sizes.count == text.split(separator: ",", omittingEmptySubsequences: false).count,
                sizes.allSatisfy({ (1...10_000).contains($0) })
            else {
                throw UsageError(
                    .invalidValue,
                    program: program,
                    "--fleet-sizes: \"\(text)\" is not a list of counts from 1 to 10000"
                )
            }
            self.sizes = sizes
        }
        steadySeconds = try parsed.integer("fleet-seconds", in: 1...600, program: program) ?? steadySeconds
        if let text = parsed.value("fleet-address") {
            let octets = text.split(separator: ".").compactMap { UInt8($0) }
            guard octets.count == 4, octets[0] == 127 else {
                throw UsageError(
                    .invalidValue,
                    program: program,
                    "--fleet-address: \"\(text)\" is not a loopback IPv4 address (127.x.x.x)"
                )
            }
            firstAddress = text
        }
        runs = try parsed.integer("fleet-runs", in: 1...10, program: program) ?? runs
        concurrentStarts = try parsed.integer("fleet-concurrency", in: 1...4096, program: program) ?? concurrentStarts
        plotPath = try parsed.nonEmpty("fleet-plot", program: program)
        includesPyChromecast = !parsed.has("fleet-no-pychromecast")
    }

    /// The `cast-emulator` to start: `CAST_BENCH_EMULATOR`, else the one beside this executable.
    var emulatorExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["CAST_BENCH_EMULATOR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return own.deletingLastPathComponent().appendingPathComponent("cast-emulator")
    }

    /// The checkout: the current directory when it holds `Package.swift`, else the one this
    /// source file was built from.
    var repositoryRoot: URL {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if FileManager.default.fileExists(atPath: current.appendingPathComponent("Package.swift").path) {
            return current
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The Python that runs the pychromecast side: `CAST_BENCH_PYTHON`, else the checkout's
    /// `.venv/bin/python`; `nil` when neither exists.
    var python: URL? {
        if let path = ProcessInfo.processInfo.environment["CAST_BENCH_PYTHON"], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : nil
        }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python")
        return FileManager.default.isExecutableFile(atPath: venv.path) ? venv : nil
    }
}
