import Foundation

// Every benchmark group of the project; each lives in its own file and is selected by name.
let groups: [BenchmarkGroup] = [
    frameCodecBenchmarks,
    protobufBenchmarks,
    sessionBenchmarks,
    jsonBenchmarks,
    tlsBenchmarks,
    discoveryBenchmarks,
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print("usage: cast-bench [GROUP ...]\n\nGroups (all when none is named):")
    for group in groups { print("  \(group.name.padding(toLength: 14, withPad: " ", startingAt: 0))\(group.summary)") }
    exit(0)
}
let unknown = arguments.filter { name in !groups.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(Data("cast-bench: unknown group \(unknown.joined(separator: ", "))\n".utf8))
    exit(2)
}
let selected = arguments.isEmpty ? groups : groups.filter { arguments.contains($0.name) }

var rows: [BenchmarkRow] = []
for group in selected {
    do {
        rows += try await group.run()
    } catch {
        rows.append(BenchmarkRow(name: group.name, value: "failed", note: "\(error)"))
    }
}
printTable(rows)
