import CastCore
import Foundation

/// swift-cast side by side with PyChromecast 14, in one run, against one virtual device in
/// a process of its own; both senders are separate processes started the same way
/// (`posix_spawn` from this process, same environment):
///
/// - (a) process start → connected → Default Media Receiver launched → LOAD → PLAYING →
///   exit, alternating the two senders, the device rebooted before each run;
/// - (b) PAUSE/PLAY → MEDIA_STATUS round trips on one session, timed inside each process;
/// - (c) decoding a framed MEDIA_STATUS `CastMessage` (protobuf + JSON) on one core.
///
/// PyChromecast runs through `scripts/bench/pychromecast_bench.py` with the Python named by
/// `CAST_BENCH_PYTHON`; without it the rows show swift-cast's figures and say why the
/// PyChromecast column is empty.
let pychromecastBenchmarks = BenchmarkGroup(
    name: "pychromecast",
    summary: "side by side with PyChromecast 14: start→PLAYING→exit, PAUSE round trip, MEDIA_STATUS decode"
) {
    let python = PythonPeer.locate()
    var rows: [BenchmarkRow] = []
    let device = try VirtualDeviceProcess.start()
    // A failing part leaves a row saying why and the other parts still run.
    let parts: [(String, () async throws -> [BenchmarkRow])] = [
        ("(a) end to end", { try await endToEndRows(device: device, python: python) }),
        ("(b) round trip", { try await roundTripRows(device: device, python: python) }),
        ("(c) decode", { try decodeRows(python: python) }),
    ]
    for (name, part) in parts {
        do {
            rows += try await part()
        } catch {
            rows.append(BenchmarkRow(name: name, value: "failed", note: "\(error)"))
        }
    }
    if case .unavailable(let reason) = python {
        rows.append(BenchmarkRow(name: "pychromecast column", value: "unavailable", note: reason))
    }
    return rows
}

/// The Python side: the interpreter and the script, or why it cannot run.
enum PythonPeer {
    case available(python: String, script: String)
    case unavailable(String)

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func locate() -> PythonPeer {
        let environment = ProcessInfo.processInfo.environment
        guard let python = environment["CAST_BENCH_PYTHON"], !python.isEmpty else {
            return .unavailable("CAST_BENCH_PYTHON is not set (scripts/bench.sh sets it up)")
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return .unavailable("CAST_BENCH_PYTHON=\(python) is not an executable")
        }
        let script =
            environment["CAST_BENCH_SCRIPT"]
            ?? repositoryRoot.appendingPathComponent("scripts/bench/pychromecast_bench.py").path
        guard FileManager.default.fileExists(atPath: script) else {
            return .unavailable("\(script) not found")
        }
        return .available(python: python, script: script)
    }

    var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }

    /// Runs the script with `arguments`; returns its JSON report.
    func run(_ arguments: [String], timeout: Duration) throws -> [String: JSONValue] {
        guard case .available(let python, let script) = self else { throw BenchmarkFailure("no Python") }
        let child = try ChildProcess(executable: python, arguments: [script] + arguments)
        return try CrossProcessReport.parse(
            child.finish(timeout: timeout),
            what: "pychromecast_bench.py \(arguments[0])"
        )
    }
}

/// Reading the JSON the child processes print.
enum CrossProcessReport {
    static func parse(_ exit: ChildProcess.Exit, what: String) throws -> [String: JSONValue] {
        let line = exit.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard case .object(let object)? = try? JSONValue(parsing: Array(line.utf8)) else {
            throw BenchmarkFailure("\(what): exit \(exit.status), no report; stderr: \(exit.stderr.suffix(400))")
        }
        if case .string(let error)? = object["error"] {
            throw BenchmarkFailure("\(what): \(error.suffix(400))")
        }
        guard exit.status == 0 else { throw BenchmarkFailure("\(what): exit status \(exit.status)") }
        return object
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let number)?: Double(number)
        case .double(let number)?: number
        default: nil
        }
    }

    static func numbers(_ value: JSONValue?) -> [Double] {
        guard case .array(let values)? = value else { return [] }
        return values.compactMap { number($0) }
    }

    /// Named timestamps (`marks`) as seconds after `origin` (CLOCK_MONOTONIC nanoseconds).
    static func marks(_ report: [String: JSONValue], since origin: UInt64) -> [String: Double] {
        guard case .object(let marks)? = report["marks"] else { return [:] }
        return marks.compactMapValues { value in number(value).map { ($0 - Double(origin)) / 1e9 } }
    }
}

// MARK: - Summaries

/// Median and p99 of a set of seconds.
struct Distribution {
    var sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    var median: Double { Measure.percentile(sorted, 0.5) }
    var p99: Double { Measure.percentile(sorted, 0.99) }
    var text: String { "\(Format.time(seconds: median)) / \(Format.time(seconds: p99))" }
}

/// How many times faster `ours` is than `theirs`, with the verdict against `target`.
func ratioText(ours: Double, theirs: Double, target: Double?) -> String {
    let ratio = theirs / ours
    let figure = ratio >= 10 ? String(format: "%.0f×", ratio) : String(format: "%.1f×", ratio)
    guard let target else { return figure }
    return "\(figure) (target ≥ \(Int(target))×: \(ratio >= target ? "met" : "missed"))"
}

private func unavailableColumn(_ python: PythonPeer) -> String {
    python.isAvailable ? "failed" : "unavailable"
}

// MARK: - (a) End to end

private func endToEndRows(device: VirtualDeviceProcess, python: PythonPeer) async throws -> [BenchmarkRow] {
    let runs = BenchmarkSettings.count(15, quick: 3)
    let own = VirtualDeviceProcess.ownExecutable
    let host = device.address
    let port = String(device.castPort)

    var ours: [Double] = []
    var theirs: [Double] = []
    var ourPhases: [String: [Double]] = [:]
    var theirPhases: [String: [Double]] = [:]
    var pythonError: String?
    var ourPeaks: [Double] = []
    var theirPeaks: [Double] = []
    let commandLine = CommandLineRun(beside: own, host: host, port: port)
    var commandLineRuns: [ChildProcess.Exit] = []
    var commandLineSpawns: [UInt64] = []

    /// One run of one side: wall time from spawn to exit, and the phases it reported.
    func measure(
        _ start: () throws -> ChildProcess,
        what: String,
        peaks: inout [Double]
    ) async throws -> (Double, [String: Double]) {
        try await device.reboot()
        let child = try start()
        let exit = child.finish(timeout: .seconds(60))
        let report = try CrossProcessReport.parse(exit, what: what)
        var phases = CrossProcessReport.marks(report, since: child.spawnedAt)
        let total = Double(exit.exitedAt - child.spawnedAt) / 1e9
        if let playing = phases["playing"] { phases["exit"] = total - playing }
        peaks.append(Double(exit.peakResidentKiB) * 1024)
        return (total, phases)
    }
    func commandLineRun() async throws {
        guard let commandLine else { return }
        try await device.reboot()
        let child = try commandLine.start()
        let exit = child.finish(timeout: .seconds(60))
        guard exit.status == 0 else {
            throw BenchmarkFailure("cast play: exit \(exit.status): \(exit.stderr.suffix(300))")
        }
        commandLineRuns.append(exit)
        commandLineSpawns.append(child.spawnedAt)
    }
    func ourRun() async throws -> (Double, [String: Double]) {
        try await measure(
            {
                try ChildProcess(executable: own, arguments: ["--client", "e2e", host, port], measuresPeakMemory: true)
            },
            what: "cast-bench --client e2e",
            peaks: &ourPeaks
        )
    }
    func theirRun() async throws -> (Double, [String: Double]) {
        try await measure(
            {
                guard case .available(let python, let script) = python else { throw BenchmarkFailure("no Python") }
                return try ChildProcess(
                    executable: python,
                    arguments: [script, "e2e", host, port, device.deviceID],
                    measuresPeakMemory: true
                )
            },
            what: "pychromecast_bench.py e2e",
            peaks: &theirPeaks
        )
    }

    // One unrecorded run of each warms the page cache and the device.
    _ = try await ourRun()
    if python.isAvailable {
        do { _ = try await theirRun() } catch { pythonError = "\(error)" }
    }
    try await commandLineRun()
    commandLineRuns.removeAll()
    commandLineSpawns.removeAll()
    for _ in 0..<runs {
        let (total, phases) = try await ourRun()
        ours.append(total)
        for (name, value) in phases { ourPhases[name, default: []].append(value) }
        try await commandLineRun()
        if python.isAvailable, pythonError == nil {
            do {
                let (total, phases) = try await theirRun()
                theirs.append(total)
                for (name, value) in phases { theirPhases[name, default: []].append(value) }
            } catch {
                pythonError = "\(error)"
            }
        }
    }

    // Process start alone: the floor under (a) for each side.
    var ourStart: [Double] = []
    var theirStart: [Double] = []
    var theirImport: [Double] = []
    var commandLineStarts: [ChildProcess.Exit] = []
    var commandLineStartSpawns: [UInt64] = []
    for _ in 0..<runs {
        if let commandLine {
            let child = try commandLine.startVersion()
            let exit = child.finish(timeout: .seconds(30))
            guard exit.status == 0 else { throw BenchmarkFailure("cast --version: exit \(exit.status)") }
            commandLineStarts.append(exit)
            commandLineStartSpawns.append(child.spawnedAt)
        }
        let child = try ChildProcess(executable: own, arguments: ["--client", "noop"])
        let exit = child.finish(timeout: .seconds(30))
        _ = try CrossProcessReport.parse(exit, what: "cast-bench --client noop")
        ourStart.append(Double(exit.exitedAt - child.spawnedAt) / 1e9)
        if case .available(let interpreter, _) = python, pythonError == nil {
            for (code, into) in [("pass", 0), ("import pychromecast", 1)] {
                let child = try ChildProcess(executable: interpreter, arguments: ["-c", code])
                let exit = child.finish(timeout: .seconds(30))
                guard exit.status == 0 else {
                    pythonError = "python -c '\(code)': exit \(exit.status): \(exit.stderr.suffix(300))"
                    break
                }
                let seconds = Double(exit.exitedAt - child.spawnedAt) / 1e9
                if into == 0 { theirStart.append(seconds) } else { theirImport.append(seconds) }
            }
        }
    }

    let ourTotal = Distribution(ours)
    var main = BenchmarkRow(
        name: "(a) start → launch → LOAD → PLAYING → exit",
        value: "\(ours.count)+\(theirs.count) runs",
        median: Format.time(seconds: ourTotal.median),
        p99: Format.time(seconds: ourTotal.p99),
        note: "separate processes, alternating, device rebooted before each; median / p99"
    )
    main.note += "; peak RSS \(Format.bytes(Distribution(ourPeaks).median))"
    if theirs.count == runs {
        let theirTotal = Distribution(theirs)
        main.pychromecast = theirTotal.text
        main.ratio = ratioText(ours: ourTotal.median, theirs: theirTotal.median, target: 10)
        main.note += " (PyChromecast \(Format.bytes(Distribution(theirPeaks).median)))"
    } else {
        main.pychromecast = unavailableColumn(python)
        if let pythonError { main.note = "PyChromecast: \(pythonError)" }
    }
    let commandLineRows = CommandLineRun.rows(
        plays: zip(commandLineRuns, commandLineSpawns).map { $0 },
        versions: zip(commandLineStarts, commandLineStartSpawns).map { $0 },
        pychromecast: theirs.count == runs ? Distribution(theirs).median : nil
    )

    func phaseText(_ phases: [String: [Double]], _ order: [String]) -> String {
        order.compactMap { name in
            phases[name].map { "\(name) \(Format.time(seconds: Distribution($0).median))" }
        }.joined(separator: ", ")
    }
    let ourOrder = ["started", "launched", "playing", "exit"]
    let theirOrder = ["started", "imported", "connected", "launched", "playing", "exit"]
    var phaseRow = BenchmarkRow(
        name: "(a) phases, medians since spawn",
        value: "",
        note: "swift-cast: \(phaseText(ourPhases, ourOrder))"
    )
    if !theirPhases.isEmpty { phaseRow.note += "; PyChromecast: \(phaseText(theirPhases, theirOrder))" }

    let startDistribution = Distribution(ourStart)
    var startRow = BenchmarkRow(
        name: "process start → exit, no work",
        value: "\(ourStart.count) runs",
        median: Format.time(seconds: startDistribution.median),
        p99: Format.time(seconds: startDistribution.p99),
        note: "cast-bench --client noop vs python -c pass"
    )
    var importRow = BenchmarkRow(name: "python -c 'import pychromecast'", value: "\(theirImport.count) runs")
    if theirStart.count == runs, theirImport.count == runs {
        startRow.pychromecast = Distribution(theirStart).text
        startRow.ratio = ratioText(ours: startDistribution.median, theirs: Distribution(theirStart).median, target: nil)
        importRow.pychromecast = Distribution(theirImport).text
        importRow.note = "the interpreter and PyChromecast's imports: PyChromecast's floor for (a)"
        return [main, phaseRow] + commandLineRows + [startRow, importRow]
    }
    startRow.pychromecast = unavailableColumn(python)
    return [main, phaseRow] + commandLineRows + [startRow]
}

// MARK: - (b) Command round trip

private func roundTripRows(device: VirtualDeviceProcess, python: PythonPeer) async throws -> [BenchmarkRow] {
    let count = BenchmarkSettings.count(1000, quick: 100)
    let own = VirtualDeviceProcess.ownExecutable
    let host = device.address
    let port = String(device.castPort)

    /// One client run: its samples and its context switches per trip (wake-ups of its threads).
    func run(onPool: Bool) async throws -> (Distribution, Double) {
        try await device.reboot()
        let child = try ChildProcess(
            executable: own,
            arguments: ["--client", "roundtrip", host, port, String(count)] + (onPool ? ["pool"] : [])
        )
        let report = try CrossProcessReport.parse(
            child.finish(timeout: .seconds(300)),
            what: "cast-bench --client roundtrip"
        )
        let samples = Distribution(CrossProcessReport.numbers(report["samples_ns"]).map { $0 / 1e9 })
        guard samples.sorted.count == count else {
            throw BenchmarkFailure("round trip: \(samples.sorted.count) samples")
        }
        let switches = CrossProcessReport.numbers(report["context_switches"]).first ?? .nan
        return (samples, switches / Double(count))
    }
    let (ours, switches) = try await run(onPool: false)
    let (pool, poolSwitches) = try await run(onPool: true)

    let medianMet = ours.median <= 150e-6 ? "met" : "missed"
    let p99Met = ours.p99 <= 2e-3 ? "met" : "missed"
    var row = BenchmarkRow(
        name: "(b) PAUSE/PLAY → MEDIA_STATUS",
        value: "\(count) trips",
        median: Format.time(seconds: ours.median),
        p99: Format.time(seconds: ours.p99),
        note: "timed in each process, the caller on the connection's thread (CastSession.taskExecutor), "
            + String(format: "%.1f", switches) + " context switches a trip; "
            + "target p50 ≤ 150 µs: \(medianMet), p99 ≤ 2 ms: \(p99Met)"
    )
    let poolRow = BenchmarkRow(
        name: "(b) … the caller on the concurrency pool",
        value: "\(count) trips",
        median: Format.time(seconds: pool.median),
        p99: Format.time(seconds: pool.p99),
        note: "as before CastSession.taskExecutor: " + String(format: "%.1f", poolSwitches) + " context switches a trip"
    )
    if python.isAvailable {
        do {
            try await device.reboot()
            let report = try python.run(
                ["roundtrip", host, port, device.deviceID, String(count)],
                timeout: .seconds(600)
            )
            let theirs = Distribution(CrossProcessReport.numbers(report["samples_ns"]).map { $0 / 1e9 })
            guard theirs.sorted.count == count else { throw BenchmarkFailure("\(theirs.sorted.count) samples") }
            row.pychromecast = theirs.text
            row.ratio = ratioText(ours: ours.median, theirs: theirs.median, target: nil)
        } catch {
            row.pychromecast = "failed"
            row.note += "; PyChromecast: \(error)"
        }
    } else {
        row.pychromecast = "unavailable"
    }
    return [row, poolRow]
}

// MARK: - (c) MEDIA_STATUS frame decode

private func decodeRows(python: PythonPeer) throws -> [BenchmarkRow] {
    let samples = BenchmarkSettings.count(200, quick: 20)
    let batch = BenchmarkSettings.count(200, quick: 50)
    let message = CastMessage(
        sourceID: "9c4f2b1e-7d3a-4c5b-8e6f-1a2b3c4d5e6f",
        destinationID: "sender-0",
        namespace: .media,
        text: mediaStatusFixture
    )
    let frame = try CastFrameEncoder.encode(message.serializedBytes())
    guard case .mediaStatus(let expected) = try MediaMessage(jsonString: mediaStatusFixture),
        expected.status.first?.playerState == .playing
    else { throw BenchmarkFailure("the fixture is not a PLAYING MEDIA_STATUS") }

    // Frame body → CastMessage → typed MEDIA_STATUS, as a session receives it.
    let (ours, oursWall) = try DualTiming.measure(samples: samples, batch: batch) {
        let decoded = try CastMessage(serializedBytes: frame[4...])
        guard let text = decoded.payloadUTF8, case .mediaStatus = try MediaMessage(jsonString: text) else {
            throw BenchmarkFailure("decoded frame is not a MEDIA_STATUS")
        }
    }
    var row = BenchmarkRow(
        name: "(c) MEDIA_STATUS frame decode",
        value: Format.rate(1 / ours.median),
        median: Format.time(seconds: ours.median),
        p99: Format.time(seconds: ours.p99),
        note: "\(frame.count) B frame, thread CPU time, \(samples)×\(batch), 1 core; ours: protobuf + typed MediaStatus"
    )
    guard python.isAvailable else {
        row.pychromecast = "unavailable"
        row.note += "; wall median \(Format.time(seconds: oursWall.median))"
        return [row]
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("cast-bench-frame-\(getpid()).bin")
    try Data(frame).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    do {
        let report = try python.run(["decode", file.path, String(samples), String(batch)], timeout: .seconds(300))
        func distribution(_ key: String) throws -> Distribution {
            let values = CrossProcessReport.numbers(report[key]).map { $0 / 1e9 }
            guard values.count == samples else { throw BenchmarkFailure("\(key): \(values.count) samples") }
            return Distribution(values)
        }
        let plain = try distribution("plain_cpu_ns")
        let plainWall = try distribution("plain_wall_ns")
        let typed = try distribution("typed_cpu_ns")
        let implementation: String
        if case .string(let name)? = report["protobuf"] { implementation = name } else { implementation = "?" }
        row.pychromecast = plain.text
        row.ratio = ratioText(ours: ours.median, theirs: plain.median, target: 3)
        row.note += "; PyChromecast: cast_channel_pb2 (\(implementation)) + json.loads"
        let wallRow = BenchmarkRow(
            name: "(c) … same, wall clock (perf_counter_ns)",
            value: "",
            median: Format.time(seconds: oursWall.median),
            p99: Format.time(seconds: oursWall.p99),
            pychromecast: plainWall.text,
            ratio: ratioText(ours: oursWall.median, theirs: plainWall.median, target: nil)
        )
        let typedRow = BenchmarkRow(
            name: "(c) … PyChromecast + MediaStatus.update",
            value: "",
            median: Format.time(seconds: ours.median),
            p99: Format.time(seconds: ours.p99),
            pychromecast: typed.text,
            ratio: ratioText(ours: ours.median, theirs: typed.median, target: nil)
        )
        return [row, wallRow, typedRow]
    } catch {
        row.pychromecast = "failed"
        row.note += "; PyChromecast: \(error)"
        return [row]
    }
}

/// Per-call times of batches by the thread's CPU time (immune to being descheduled on a
/// shared machine) and by wall time.
enum DualTiming {
    static func measure(
        samples: Int,
        batch: Int,
        _ body: () throws -> Void
    ) rethrows -> (
        cpu: Distribution, wall: Distribution
    ) {
        for _ in 0..<batch { try body() }
        var cpu: [Double] = []
        var wall: [Double] = []
        for _ in 0..<samples {
            let cpuStart = CPUTime.now()
            let wallStart = MonotonicClock.nanoseconds()
            for _ in 0..<batch { try body() }
            wall.append(Double(MonotonicClock.nanoseconds() - wallStart) / 1e9 / Double(batch))
            cpu.append((CPUTime.now() - cpuStart) / Double(batch))
        }
        return (Distribution(cpu), Distribution(wall))
    }
}
