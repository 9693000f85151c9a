import CastEmulator
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Fleet scale: this process holds sessions to N virtual devices of a separate `cast-emulator`
/// process (each device on its own loopback address, sending `MEDIA_STATUS` every second
/// while it plays), and pychromecast does the same in a Python process beside it. Also the
/// emulator's own cost per device. Run only when named: it takes minutes.
func fleetBenchmarks(_ settings: FleetSettings) -> BenchmarkGroup {
    BenchmarkGroup(
        name: "fleet",
        summary: "N SDK sessions to a cast-emulator fleet, pychromecast beside (named only)"
    ) {
        try await FleetBenchmark(settings: settings).run()
    }
}

/// The targets at the largest size: the SDK's sessions and the emulator's devices.
private enum FleetTarget {
    static let bytesPerSession = 32.0 * 1024
    static let cpuPercent = 15.0
    /// Client CPU per MEDIA_STATUS received (each device sends one a second).
    static let microsecondsPerStatus = 15.0
    /// The emulator's CPU serving the same statuses.
    static let emulatorCPUPercent = 40.0
    static let setUpSeconds = 30.0
    static let emulatorStartSeconds = 10.0
    static let emulatorBytesPerDevice = 64.0 * 1024
}

/// The values of one figure over the runs of one size.
private struct Spread {
    var values: [Double]

    var median: Double { FleetPlot.median(values) }

    /// `12.3` for one run, `12.3 (11.9–13.0)` for several.
    func text(_ format: String, scale: Double = 1) -> String {
        let middle = String(format: format, median / scale)
        guard values.count > 1, let low = values.min(), let high = values.max() else { return middle }
        return "\(middle) (\(String(format: format, low / scale))–\(String(format: format, high / scale)))"
    }
}

/// One fleet measurement, of the SDK or of pychromecast.
private struct FleetFigures {
    var client: String
    var count: Int
    var up: Int
    var connectSeconds: Double?
    var residentBytes: Int?
    var bytesPerSession: Double?
    var threads: Int?
    var descriptors: Int?
    var cpuPercent: Double?
    /// For the SDK: sessions whose reported position moved during the window; for
    /// pychromecast: statuses received per second.
    var statusFlow: String
    var emulatorBytesPerDevice: Double?
    var emulatorCPUPercent: Double?
    var problem: String?
    /// Sessions whose reported position moved during the window (SDK only).
    var moving = 0
    /// The spread over several runs, when there were several.
    var spread: String?

    var row: BenchmarkRow {
        var parts: [String] = []
        if let residentBytes, let bytesPerSession {
            parts.append("RSS \(Format.bytes(Double(residentBytes))) (\(Format.bytes(bytesPerSession))/session)")
        }
        if let threads, let descriptors { parts.append("\(threads) threads, \(descriptors) fds") }
        if let cpuPercent { parts.append(String(format: "CPU %.2f %% of a core", cpuPercent)) }
        parts.append(statusFlow)
        if let emulatorBytesPerDevice {
            parts.append("emulator \(Format.bytes(emulatorBytesPerDevice))/device")
        }
        if let problem { parts.append(problem) }
        if let spread { parts.append(spread) }
        return BenchmarkRow(
            name: "fleet \(count) \(client)",
            value: "\(up)/\(count) up",
            median: connectSeconds.map { String(format: "%.1f s start", $0) } ?? "-",
            note: parts.joined(separator: "; ")
        )
    }

    static let markdownHeader = """
        | client | N | up | start (s) | RSS | RSS/session | threads | fds | CPU % of a core | status flow | emulator RSS/device (playing) |
        |---|---|---|---|---|---|---|---|---|---|---|
        """

    var markdown: String {
        func cell(_ value: Double?, _ format: String) -> String { value.map { String(format: format, $0) } ?? "-" }
        var cells = [client, "\(count)", "\(up)", cell(connectSeconds, "%.1f")]
        cells.append(residentBytes.map { Format.bytes(Double($0)) } ?? "-")
        cells.append(bytesPerSession.map { Format.bytes($0) } ?? "-")
        cells.append(threads.map(String.init) ?? "-")
        cells.append(descriptors.map(String.init) ?? "-")
        cells.append(cell(cpuPercent, "%.2f"))
        cells.append(statusFlow + (problem.map { " (\($0))" } ?? ""))
        cells.append(emulatorBytesPerDevice.map { Format.bytes($0) } ?? "-")
        return "| " + cells.joined(separator: " | ") + " |"
    }
}

private struct FleetBenchmark {
    var settings: FleetSettings

    func run() async throws -> [BenchmarkRow] {
        let emulator = settings.emulatorExecutable
        guard FileManager.default.isExecutableFile(atPath: emulator.path) else {
            throw BenchmarkFailure(
                "no cast-emulator at \(emulator.path): build it (swift build -c release) or set CAST_BENCH_EMULATOR"
            )
        }
        // Every session holds one descriptor; the default soft limit of 1024 is too low, so
        // the soft limit goes up to the hard one (20,000 here, which a container may forbid
        // raising further; the emulator's shared ports keep it within that too).
        let largest = settings.sizes.max() ?? 1000
        let limit = ResourceLimits.raiseOpenFileLimit()
        if limit < largest + 256 {
            progress("fleet: warning: open-file limit \(limit) is below the \(largest + 256) needed (ulimit -Hn)")
        }
        var rows: [BenchmarkRow] = []

        // The emulator alone, idle: one device for the base, then each size.
        let single = try await emulatorIdle(executable: emulator, count: 1).sample
        var idle: [Int: [EmulatorIdle]] = [:]
        for count in settings.sizes {
            for run in 1...settings.runs {
                progress("fleet: emulator with \(count) devices, idle (run \(run)/\(settings.runs))")
                idle[count, default: []].append(try await emulatorIdle(executable: emulator, count: count))
            }
        }
        for count in settings.sizes {
            rows.append(emulatorRow(count: count, runs: idle[count] ?? [], single: single))
        }

        var figures: [Int: [FleetFigures]] = [:]
        for count in settings.sizes {
            for run in 1...settings.runs {
                progress("fleet: swift-cast with \(count) devices (run \(run)/\(settings.runs))")
                let measured = try await measureSDK(
                    executable: emulator,
                    count: count,
                    emulatorBase: single.residentBytes
                )
                figures[count, default: []].append(measured)
            }
        }
        var medians: [FleetFigures] = []
        for count in settings.sizes {
            guard var runs = figures[count], !runs.isEmpty else { continue }
            runs.sort { ($0.cpuPercent ?? 0) < ($1.cpuPercent ?? 0) }
            var middle = runs[runs.count / 2]
            if runs.count > 1 { middle.spread = spreadNote(runs) }
            medians.append(middle)
            rows.append(middle.row)
        }
        if let largest = settings.sizes.max(), let sessions = figures[largest], let devices = idle[largest] {
            rows.append(targetRow(count: largest, sessions: sessions, devices: devices, single: single))
        }
        var python: [FleetFigures] = []
        if settings.includesPyChromecast {
            python = try await measurePyChromecast(executable: emulator, emulatorBase: single.residentBytes)
            rows += python.map(\.row)
        }
        print("\nEmulator, idle\n")
        print("| devices | runs | start (s) | RSS | RSS/device | threads | fds |")
        print("|---|---|---|---|---|---|---|")
        print(
            "| 1 | 1 | - | \(Format.bytes(Double(single.residentBytes))) | - | \(single.threads) | \(single.descriptors) |"
        )
        for count in settings.sizes {
            guard let runs = idle[count], let last = runs.last else { continue }
            let perDevice = Spread(values: runs.map { $0.bytesPerDevice(base: single) })
            print(
                "| \(count) | \(runs.count) | \(Spread(values: runs.map(\.startSeconds)).text("%.2f")) "
                    + "| \(Format.bytes(Double(last.sample.residentBytes))) | \(perDevice.text("%.1f", scale: 1024)) KiB "
                    + "| \(last.sample.threads) | \(last.sample.descriptors) |"
            )
        }
        print("\nFleet (the median run by client CPU; spread over runs in brackets)\n")
        print(FleetFigures.markdownHeader)
        for figure in medians + python { print(figure.markdown) }
        print("")
        if let path = settings.plotPath {
            try writePlot(path: path, figures: figures, idle: idle, single: single)
            progress("fleet: plot written to \(path)")
        }
        return rows
    }

    /// `start 21.3 (20.1–24.0) s; RSS/session …; CPU …` over the runs of one size.
    private func spreadNote(_ runs: [FleetFigures]) -> String {
        let start = Spread(values: runs.compactMap(\.connectSeconds))
        let memory = Spread(values: runs.compactMap(\.bytesPerSession))
        let cpu = Spread(values: runs.compactMap(\.cpuPercent))
        return
            "\(runs.count) runs: start \(start.text("%.1f")) s, RSS/session \(memory.text("%.1f", scale: 1024)) KiB, "
            + "CPU \(cpu.text("%.2f")) %"
    }

    private func writePlot(
        path: String,
        figures: [Int: [FleetFigures]],
        idle: [Int: [EmulatorIdle]],
        single: FleetProcessSample
    ) throws {
        func series(_ label: String, _ colour: String, _ value: (FleetFigures) -> Double?) -> PlotSeries {
            PlotSeries(
                label: label,
                colour: colour,
                points: figures.keys.sorted().map { count in (count, (figures[count] ?? []).compactMap(value)) }
            )
        }
        let emulatorMemory = PlotSeries(
            label: "emulator RSS/device, idle",
            colour: "#188038",
            points: idle.keys.sorted().map { count in
                (count, (idle[count] ?? []).map { $0.bytesPerDevice(base: single) / 1024 })
            }
        )
        let emulatorStart = PlotSeries(
            label: "emulator start",
            colour: "#188038",
            points: idle.keys.sorted().map { count in (count, (idle[count] ?? []).map(\.startSeconds)) }
        )
        let panels = [
            PlotPanel(
                title: "Memory per session / device",
                unit: "KiB",
                series: [
                    series("SDK RSS/session", "#1a73e8") { $0.bytesPerSession.map { $0 / 1024 } }, emulatorMemory,
                ],
                target: FleetTarget.bytesPerSession / 1024
            ),
            PlotPanel(
                title: "CPU, 1 MEDIA_STATUS/s per session",
                unit: "% of one core",
                series: [
                    series("SDK client", "#1a73e8") { $0.cpuPercent },
                    series("emulator", "#188038") { $0.emulatorCPUPercent },
                ],
                target: FleetTarget.cpuPercent
            ),
            PlotPanel(
                title: "Start-up time",
                unit: "seconds",
                series: [series("SDK: all sessions up", "#1a73e8") { $0.connectSeconds }, emulatorStart],
                target: FleetTarget.setUpSeconds
            ),
        ]
        let caption =
            "cast-bench --rows fleet --fleet-sizes \(settings.sizes.map(String.init).joined(separator: ",")) "
            + "--fleet-runs \(settings.runs): release build, \(ProcessInfo.processInfo.activeProcessorCount) cores; "
            + "dots are medians, bars the spread over runs"
        try FleetPlot.svg(panels, caption: caption).write(toFile: path, atomically: true, encoding: .utf8)
    }

    // MARK: Emulator

    /// An idle emulator: how long it took to start and what it holds.
    private struct EmulatorIdle {
        var count: Int
        var startSeconds: Double
        var sample: FleetProcessSample

        /// RSS per device beyond an emulator with one device.
        func bytesPerDevice(base: FleetProcessSample) -> Double {
            Double(sample.residentBytes - base.residentBytes) / Double(max(count - 1, 1))
        }
    }

    /// Starts an emulator with `count` idle devices, samples it after a second, stops it.
    private func emulatorIdle(executable: URL, count: Int) async throws -> EmulatorIdle {
        let process = try await FleetEmulatorProcess(
            executable: executable,
            count: count,
            firstAddress: settings.firstAddress,
            statusInterval: nil
        )
        try? await Task.sleep(for: .seconds(1))
        let sample = process.sample()
        await process.stop()
        guard let sample else { throw BenchmarkFailure("could not read the emulator's /proc entries") }
        return EmulatorIdle(count: count, startSeconds: process.startSeconds, sample: sample)
    }

    private func emulatorRow(count: Int, runs: [EmulatorIdle], single: FleetProcessSample) -> BenchmarkRow {
        let perDevice = Spread(values: runs.map { $0.bytesPerDevice(base: single) })
        let start = Spread(values: runs.map(\.startSeconds))
        let last = runs.last?.sample
        return BenchmarkRow(
            name: "emulator \(count) devices",
            value: "\(perDevice.text("%.1f", scale: 1024)) KiB/device",
            median: "\(start.text("%.2f")) s start",
            note: "idle; RSS \(last.map { Format.bytes(Double($0.residentBytes)) } ?? "-") (1 device: "
                + "\(Format.bytes(Double(single.residentBytes)))), \(last?.threads ?? 0) threads, "
                + "\(last?.descriptors ?? 0) fds; \(runs.count) run(s)"
        )
    }

    // MARK: SDK

    /// - Parameter emulatorBase: RSS of an emulator with one device, left out of the
    ///   emulator's bytes per device.
    private func measureSDK(executable: URL, count: Int, emulatorBase: Int) async throws -> FleetFigures {
        let emulator = try await FleetEmulatorProcess(
            executable: executable,
            count: count,
            firstAddress: settings.firstAddress,
            statusInterval: settings.statusInterval
        )
        // Memory freed by an earlier, smaller fleet would otherwise count as baseline.
        returnFreeMemoryToTheSystem()
        guard let baseline = FleetProcessSample.current() else {
            await emulator.stop()
            throw BenchmarkFailure("could not read /proc/self")
        }
        let sessions = await FleetSessions.open(
            addresses: emulator.addresses,
            concurrentStarts: settings.concurrentStarts
        )
        // Let the last loads settle and the first periodic statuses arrive.
        try? await Task.sleep(for: .seconds(3))
        let before = FleetProcessSample.current()
        let emulatorBefore = emulator.sample()
        let positionsBefore = sessions.reportedPositions()
        let clock = ContinuousClock()
        let begin = clock.now
        try? await Task.sleep(for: .seconds(settings.steadySeconds))
        let after = FleetProcessSample.current()
        let wall = (clock.now - begin).seconds
        let emulatorAfter = emulator.sample()
        let positionsAfter = sessions.reportedPositions()
        let connected = sessions.connectedCount
        await sessions.close()
        await emulator.stop()

        let moving = zip(positionsBefore, positionsAfter).count { before, after in
            guard let before, let after else { return false }
            return after > before
        }
        var figures = FleetFigures(
            client: "swift-cast",
            count: count,
            up: connected,
            connectSeconds: sessions.startSeconds,
            statusFlow: "status moving on \(moving)/\(sessions.contexts.count)"
        )
        figures.moving = moving
        if let after, let before {
            figures.residentBytes = after.residentBytes
            figures.bytesPerSession =
                Double(after.residentBytes - baseline.residentBytes) / Double(max(sessions.contexts.count, 1))
            figures.threads = after.threads
            figures.descriptors = after.descriptors
            figures.cpuPercent = 100 * (after.cpuSeconds - before.cpuSeconds) / wall
        }
        if let emulatorAfter {
            figures.emulatorBytesPerDevice = Double(emulatorAfter.residentBytes - emulatorBase) / Double(count)
            if let emulatorBefore {
                figures.emulatorCPUPercent = 100 * (emulatorAfter.cpuSeconds - emulatorBefore.cpuSeconds) / wall
            }
        }
        if let failure = sessions.failures.first {
            let failed = sessions.failures.reduce(0) { $0 + $1.count }
            figures.problem = "\(failed) failed to start, e.g. \(failure.reason)"
        }
        if let emulatorCPU = figures.emulatorCPUPercent {
            figures.statusFlow += String(format: "; emulator CPU %.1f %%", emulatorCPU)
        }
        return figures
    }

    /// Each target at the largest size, judged on the median run.
    private func targetRow(
        count: Int,
        sessions: [FleetFigures],
        devices: [EmulatorIdle],
        single: FleetProcessSample
    ) -> BenchmarkRow {
        let up = sessions.map(\.up).min() ?? 0
        let perSession = Spread(values: sessions.compactMap(\.bytesPerSession)).median
        let cpu = Spread(values: sessions.compactMap(\.cpuPercent)).median
        let setUp = Spread(values: sessions.compactMap(\.connectSeconds)).median
        let moving = sessions.map(\.moving).min() ?? 0
        // Each moving session receives one status a second: CPU seconds a second over statuses.
        let perStatus = cpu / 100 * 1e6 / Double(max(moving, 1))
        let emulatorCPU = Spread(values: sessions.compactMap(\.emulatorCPUPercent)).median
        let start = Spread(values: devices.map(\.startSeconds)).median
        var verdicts: [(String, Bool)] = [
            ("\(count) sessions up, status moving on every one (\(up), \(moving))", up == count && moving == count),
            ("≤ 32 KiB RSS/session (\(Format.bytes(perSession)))", perSession <= FleetTarget.bytesPerSession),
            ("≤ 15 % of a core (\(String(format: "%.2f", cpu)) %)", cpu <= FleetTarget.cpuPercent),
            (
                "≤ 15 µs client CPU per MEDIA_STATUS (\(String(format: "%.1f", perStatus)) µs)",
                perStatus <= FleetTarget.microsecondsPerStatus
            ),
            (
                "emulator ≤ 40 % of a core (\(String(format: "%.1f", emulatorCPU)) %)",
                emulatorCPU <= FleetTarget.emulatorCPUPercent
            ),
            ("set-up ≤ 30 s (\(String(format: "%.1f", setUp)) s)", setUp <= FleetTarget.setUpSeconds),
            ("emulator start ≤ 10 s (\(String(format: "%.2f", start)) s)", start <= FleetTarget.emulatorStartSeconds),
        ]
        let perDevice = Spread(values: devices.map { $0.bytesPerDevice(base: single) }).median
        verdicts.append(
            (
                "≤ 64 KiB/idle device (\(Format.bytes(perDevice)))",
                perDevice <= FleetTarget.emulatorBytesPerDevice
            )
        )
        let met = verdicts.allSatisfy(\.1)
        return BenchmarkRow(
            name: "fleet targets at \(count)",
            value: met ? "met" : "missed",
            note: verdicts.map { "\($0.0): \($0.1 ? "met" : "missed")" }.joined(separator: "; ")
        )
    }

    // MARK: pychromecast

    /// pychromecast at each size until it fails to hold every device or takes more than
    /// 60 s to connect.
    private func measurePyChromecast(executable: URL, emulatorBase: Int) async throws -> [FleetFigures] {
        let script = settings.repositoryRoot.appendingPathComponent("scripts/bench/fleet_pychromecast.py")
        guard let python = settings.python, FileManager.default.fileExists(atPath: script.path) else {
            let row = FleetFigures(
                client: "pychromecast",
                count: settings.sizes.first ?? 100,
                up: 0,
                statusFlow: "unavailable",
                problem: "no Python (CAST_BENCH_PYTHON or .venv/bin/python) or no \(script.path)"
            )
            return [row]
        }
        var results: [FleetFigures] = []
        for count in settings.sizes {
            progress("fleet: pychromecast with \(count) devices")
            let emulator = try await FleetEmulatorProcess(
                executable: executable,
                count: count,
                firstAddress: settings.firstAddress,
                statusInterval: settings.statusInterval
            )
            let result: FleetPyChromecastResult
            do {
                result = try await FleetPyChromecastResult.run(
                    python: python,
                    script: script,
                    count: count,
                    firstAddress: settings.firstAddress,
                    steadySeconds: settings.steadySeconds,
                    deadline: .seconds(settings.steadySeconds + 240)
                )
            } catch {
                await emulator.stop()
                throw error
            }
            let emulatorSample = emulator.sample()
            await emulator.stop()
            var figures = FleetFigures(
                client: "pychromecast",
                count: count,
                up: result.connected,
                connectSeconds: result.connectSeconds,
                residentBytes: result.residentBytes,
                threads: result.threads,
                descriptors: result.descriptors,
                cpuPercent: result.cpuPercent,
                statusFlow: result.statusesPerSecond.map { String(format: "%.0f statuses/s", $0) } ?? "-",
                emulatorBytesPerDevice: emulatorSample.map { Double($0.residentBytes - emulatorBase) / Double(count) },
                problem: result.error
            )
            if result.playRetries > 0 { figures.statusFlow += "; \(result.playRetries) play_media retried" }
            if result.playErrors > 0 { figures.statusFlow += " (\(result.playErrors) raised)" }
            if let resident = result.residentBytes, let baseline = result.baselineBytes, result.connected > 0 {
                figures.bytesPerSession = Double(resident - baseline) / Double(result.connected)
            }
            results.append(figures)
            // A few launches lost in pychromecast's own races do not stop the series; devices
            // that never connect, a connection phase over 60 s or no figures do.
            let held = result.connected == count && result.cpuPercent != nil
            if !held || (result.connectSeconds ?? .infinity) > 60 { break }
        }
        return results
    }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// Calls glibc's `malloc_trim(0)`, which the Glibc module does not export, so that RSS
/// shows memory in use rather than memory an earlier phase freed.
private func returnFreeMemoryToTheSystem() {
    typealias Trim = @convention(c) (Int) -> Int32
    guard let symbol = dlsym(nil, "malloc_trim") else { return }
    _ = unsafeBitCast(symbol, to: Trim.self)(0)
}
