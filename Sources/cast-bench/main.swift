import CastArguments
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// When this process started, as close to `exec` as Swift code runs.
let processStartedAt = MonotonicClock.nanoseconds()

// Every benchmark group of the project; each lives in its own file and is selected by name.
let groups: [BenchmarkGroup] = [
    frameCodecBenchmarks,
    protobufBenchmarks,
    jsonBenchmarks,
    tlsBenchmarks,
    sessionBenchmarks,
    pychromecastBenchmarks,
    discoveryBenchmarks,
]

var arguments = Array(CommandLine.arguments.dropFirst())

// Child-process modes of the cross-process rows (not listed in --help).
if arguments.first == "--client" {
    exit(await BenchClient.run(Array(arguments.dropFirst()), startedAt: processStartedAt))
}
if arguments.first == "--serve-device", arguments.count == 2 {
    exit(await DeviceHost.run(configPath: arguments[1]))
}
// Untimed repetitions of one workload, for instruction-counting profilers (callgrind).
if arguments.first == "--repeat" {
    exit(RepeatedWorkload.main(Array(arguments.dropFirst())))
}
// The instrument of the peak-memory figures, for its tests: runs a program as the rows do.
if arguments.first == "--measure-child", arguments.count >= 2 {
    exit(ChildMeasurement.run(Array(arguments.dropFirst())))
}

let options: BenchmarkOptions
do {
    // The fleet group's settings come from the command line, so the group is made after it.
    options = try BenchmarkOptions.parse(arguments, known: (groups.map(\.name) + ["fleet"]))
} catch {
    FileHandle.standardError.write(Data("\(error.report)\n".utf8))
    exit(UsageError.exitStatus)
}
// Groups that run only when named: they take minutes and start other processes.
let namedOnlyGroups = [fleetBenchmarks(options.fleet)]
if options.showHelp {
    print(BenchmarkOptions.help(groups + namedOnlyGroups), terminator: "")
    exit(0)
}
let selected =
    options.groups.isEmpty ? groups : (groups + namedOnlyGroups).filter { options.groups.contains($0.name) }

var rows: [BenchmarkRow] = []
for group in selected {
    do {
        rows += try await group.run()
    } catch {
        rows.append(BenchmarkRow(name: group.name, value: "failed", note: "\(error)"))
    }
}
printTable(rows)
