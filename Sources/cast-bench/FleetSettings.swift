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

    static let usage = """
        Fleet options (group "fleet", run only when named):
          --fleet-sizes N,N,...    device counts, 1 to 10000 (default 100,1000,10000)
          --fleet-runs K           measurements per count, for the spread (default 1)
          --fleet-concurrency C    SDK sessions starting at once (default 256)
          --fleet-plot FILE        also write the figures against N as an SVG plot
          --fleet-seconds S        steady window in seconds (default 20)
          --fleet-address A        first device address (default 127.0.100.1)
          --fleet-no-pychromecast  skip the pychromecast rows
        Fleet environment: CAST_BENCH_EMULATOR (default: cast-emulator beside cast-bench),
          CAST_BENCH_PYTHON (default: .venv/bin/python of the checkout).
        """

    /// Removes the fleet options from `arguments` and returns the settings they give.
    static func extract(from arguments: inout [String]) throws(BenchmarkFailure) -> FleetSettings {
        var settings = FleetSettings()
        var remaining: [String] = []
        var index = 0
        func value(_ option: String) throws(BenchmarkFailure) -> String {
            index += 1
            guard index < arguments.count else { throw BenchmarkFailure("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--fleet-sizes":
                let text = try value(argument)
                let sizes = text.split(separator: ",").compactMap { Int($0) }
                guard !sizes.isEmpty, sizes.count == text.split(separator: ",").count,
                    sizes.allSatisfy({ (1...10_000).contains($0) })
                else { throw BenchmarkFailure("--fleet-sizes: \"\(text)\" is not a list of counts from 1 to 10000") }
                settings.sizes = sizes
            case "--fleet-seconds":
                let text = try value(argument)
                guard let seconds = Int(text), (1...600).contains(seconds) else {
                    throw BenchmarkFailure("--fleet-seconds: \"\(text)\" is not a number from 1 to 600")
                }
                settings.steadySeconds = seconds
            case "--fleet-address":
                let text = try value(argument)
                let octets = text.split(separator: ".").compactMap { UInt8($0) }
                guard octets.count == 4, octets[0] == 127 else {
                    throw BenchmarkFailure("--fleet-address: \"\(text)\" is not a loopback IPv4 address (127.x.x.x)")
                }
                settings.firstAddress = text
            case "--fleet-runs":
                let text = try value(argument)
                guard let runs = Int(text), (1...10).contains(runs) else {
                    throw BenchmarkFailure("--fleet-runs: \"\(text)\" is not a number from 1 to 10")
                }
                settings.runs = runs
            case "--fleet-concurrency":
                let text = try value(argument)
                guard let count = Int(text), (1...4096).contains(count) else {
                    throw BenchmarkFailure("--fleet-concurrency: \"\(text)\" is not a number from 1 to 4096")
                }
                settings.concurrentStarts = count
            case "--fleet-plot":
                settings.plotPath = try value(argument)
            case "--fleet-no-pychromecast":
                settings.includesPyChromecast = false
            default:
                remaining.append(argument)
            }
            index += 1
        }
        arguments = remaining
        return settings
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
