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

/// The per-session targets of the SDK.
private enum FleetTarget {
    static let sessions = 1000
    static let bytesPerSession = 150_000.0
    static let cpuPercent = 5.0
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
        // Every session holds one descriptor; the default soft limit of 1024 is too low.
        ResourceLimits.raiseOpenFileLimit()
        var rows: [BenchmarkRow] = []
        var markdown: [String] = []

        let scale = try await emulatorScale(executable: emulator, count: settings.sizes.max() ?? 1000)
        rows.append(scale.row)
        markdown.append(scale.markdown)

        var figures: [FleetFigures] = []
        let emulatorBase = scale.single.residentBytes
        for count in settings.sizes {
            progress("fleet: swift-cast with \(count) devices")
            let measured = try await measureSDK(executable: emulator, count: count, emulatorBase: emulatorBase)
            figures.append(measured)
            rows.append(measured.row)
        }
        if let largest = figures.max(by: { $0.count < $1.count }) {
            rows.append(targetRow(largest))
        }
        if settings.includesPyChromecast {
            let python = try await measurePyChromecast(executable: emulator, emulatorBase: emulatorBase)
            figures += python
            rows += python.map(\.row)
        }
        print("\nEmulator scale\n")
        print(markdown.joined(separator: "\n"))
        print("\nFleet\n")
        print(FleetFigures.markdownHeader)
        for figure in figures { print(figure.markdown) }
        print("")
        return rows
    }

    // MARK: Emulator

    private struct EmulatorScale {
        var count: Int
        var startSeconds: Double
        var single: FleetProcessSample
        var fleet: FleetProcessSample

        var bytesPerDevice: Double {
            Double(fleet.residentBytes - single.residentBytes) / Double(max(count - 1, 1))
        }

        var row: BenchmarkRow {
            BenchmarkRow(
                name: "emulator \(count) devices",
                value: "\(Format.bytes(bytesPerDevice))/device",
                median: String(format: "%.1f s start", startSeconds),
                note: "RSS \(Format.bytes(Double(fleet.residentBytes))) (1 device: "
                    + "\(Format.bytes(Double(single.residentBytes)))), \(fleet.threads) threads, "
                    + "\(fleet.descriptors) fds, idle"
            )
        }

        var markdown: String {
            """
            | devices | start (s) | RSS | RSS/device | threads | fds |
            |---|---|---|---|---|---|
            | 1 | - | \(Format.bytes(Double(single.residentBytes))) | - | \(single.threads) | \(single.descriptors) |
            | \(count) | \(String(format: "%.1f", startSeconds)) | \(Format.bytes(Double(fleet.residentBytes))) \
            | \(Format.bytes(bytesPerDevice)) | \(fleet.threads) | \(fleet.descriptors) |
            """
        }
    }

    /// RSS of an idle emulator with one device and with `count`; RSS per device is the
    /// difference over `count - 1`.
    private func emulatorScale(executable: URL, count: Int) async throws -> EmulatorScale {
        progress("fleet: emulator with 1 and \(count) devices")
        let one = try await FleetEmulatorProcess(
            executable: executable,
            count: 1,
            firstAddress: settings.firstAddress,
            statusInterval: nil
        )
        try? await Task.sleep(for: .seconds(1))
        let single = one.sample()
        await one.stop()
        let many = try await FleetEmulatorProcess(
            executable: executable,
            count: count,
            firstAddress: settings.firstAddress,
            statusInterval: nil
        )
        try? await Task.sleep(for: .seconds(1))
        let fleet = many.sample()
        await many.stop()
        guard let single, let fleet else { throw BenchmarkFailure("could not read the emulator's /proc entries") }
        return EmulatorScale(count: count, startSeconds: many.startSeconds, single: single, fleet: fleet)
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
        let sessions = await FleetSessions.open(addresses: emulator.addresses)
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

    private func targetRow(_ figures: FleetFigures) -> BenchmarkRow {
        let perSession = figures.bytesPerSession ?? .infinity
        let cpu = figures.cpuPercent ?? .infinity
        let sessionsMet = figures.up >= FleetTarget.sessions
        let memoryMet = perSession <= FleetTarget.bytesPerSession
        let cpuMet = cpu <= FleetTarget.cpuPercent
        func verdict(_ met: Bool) -> String { met ? "met" : "missed" }
        return BenchmarkRow(
            name: "fleet targets",
            value: sessionsMet && memoryMet && cpuMet ? "met" : "missed",
            note: "\(FleetTarget.sessions) sessions: \(verdict(sessionsMet)) (\(figures.up)); "
                + "≤ 150 KB RSS/session: \(verdict(memoryMet)) (\(Format.bytes(perSession))); "
                + "≤ 5 % of a core: \(verdict(cpuMet)) (\(String(format: "%.2f", cpu)) %)"
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
