import Foundation

// Every benchmark group of the project; each lives in its own file and is selected by name.
let groups: [BenchmarkGroup] = [
    frameCodecBenchmarks,
    protobufBenchmarks,
    sessionBenchmarks,
    jsonBenchmarks,
    tlsBenchmarks,
]

var arguments = Array(CommandLine.arguments.dropFirst())
let fleetSettings: FleetSettings
do {
    fleetSettings = try FleetSettings.extract(from: &arguments)
} catch {
    FileHandle.standardError.write(Data("cast-bench: \(error)\n".utf8))
    exit(2)
}
// `--rows A,B` names groups as well.
arguments = arguments.enumerated().flatMap { index, argument -> [String] in
    if argument == "--rows" { return [] }
    if index > 0, arguments[index - 1] == "--rows" { return argument.split(separator: ",").map(String.init) }
    return [argument]
}
// Groups that run only when named: they take minutes and start other processes.
let namedOnlyGroups = [fleetBenchmarks(fleetSettings)]
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: cast-bench [GROUP ...] [--rows GROUP,...]\n\nGroups (all but the last when none is named):")
    for group in groups + namedOnlyGroups {
        print("  \(group.name.padding(toLength: 14, withPad: " ", startingAt: 0))\(group.summary)")
    }
    print("\n" + FleetSettings.usage)
    exit(0)
}
let unknown = arguments.filter { name in !(groups + namedOnlyGroups).contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("cast-bench: unknown group \(unknown.joined(separator: ", "))\n".utf8))
    exit(2)
}
let selected = arguments.isEmpty ? groups : (groups + namedOnlyGroups).filter { arguments.contains($0.name) }

var rows: [BenchmarkRow] = []
for group in selected {
    do {
        rows += try await group.run()
    } catch {
        rows.append(BenchmarkRow(name: group.name, value: "failed", note: "\(error)"))
    }
}
printTable(rows)
