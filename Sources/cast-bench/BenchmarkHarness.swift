import Foundation

/// One line of the benchmark table.
struct BenchmarkRow: Sendable {
    /// What was measured, e.g. "CastMessage encode".
    var name: String
    /// The headline figure, already formatted (e.g. "1.23 M/s").
    var value: String
    /// Median of the samples where it applies, formatted.
    var median: String = "-"
    /// 99th percentile of the samples where it applies, formatted.
    var p99: String = "-"
    /// Free-form context: target, ratio, sample count.
    var note: String = ""
    /// The same measurement of PyChromecast, formatted, for side-by-side rows.
    var pychromecast: String = ""
    /// How many times faster swift-cast is than PyChromecast, with the target.
    var ratio: String = ""
}

/// A named group of rows that can be selected on the command line.
struct BenchmarkGroup: Sendable {
    var name: String
    var summary: String
    var run: @Sendable () async throws -> [BenchmarkRow]
}

/// Timing helpers shared by every group.
enum Measure {
    /// Runs `body` repeatedly for about `seconds` and returns operations per second.
    static func throughput(
        seconds: Double = BenchmarkSettings.quick ? 0.1 : 1.0,
        batch: Int = 1000,
        _ body: () throws -> Void
    ) rethrows -> Double {
        let clock = ContinuousClock()
        // Warm up.
        for _ in 0..<min(batch, 100) { try body() }
        var operations = 0
        let start = clock.now
        let deadline = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        while clock.now < deadline {
            for _ in 0..<batch { try body() }
            operations += batch
        }
        let elapsed = (clock.now - start).seconds
        return Double(operations) / elapsed
    }

    /// Sorted sample percentiles.
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[index]
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}

/// Human formatting of rates and durations.
enum Format {
    static func rate(_ perSecond: Double, unit: String = "/s") -> String {
        switch perSecond {
        case 1e6...: String(format: "%.2f M%@", perSecond / 1e6, unit)
        case 1e3...: String(format: "%.1f k%@", perSecond / 1e3, unit)
        default: String(format: "%.1f %@", perSecond, unit)
        }
    }

    static func time(seconds: Double) -> String {
        switch seconds {
        case ..<1e-6: String(format: "%.0f ns", seconds * 1e9)
        case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
        case ..<1: String(format: "%.2f ms", seconds * 1e3)
        default: String(format: "%.2f s", seconds)
        }
    }

    static func bytes(_ count: Double) -> String {
        switch count {
        case 1_048_576...: String(format: "%.1f MiB", count / 1_048_576)
        case 1024...: String(format: "%.1f KiB", count / 1024)
        default: String(format: "%.0f B", count)
        }
    }
}

/// Prints rows as an aligned text table; the PyChromecast and ratio columns appear when a
/// row fills them.
func printTable(_ rows: [BenchmarkRow]) {
    let sideBySide = rows.contains { !$0.pychromecast.isEmpty || !$0.ratio.isEmpty }
    let header = ["benchmark", "value", "median", "p99"] + (sideBySide ? ["pychromecast", "ratio"] : []) + ["note"]
    let cells = rows.map { row in
        [row.name, row.value, row.median, row.p99]
            + (sideBySide
                ? [row.pychromecast.isEmpty ? "-" : row.pychromecast, row.ratio.isEmpty ? "-" : row.ratio]
                : []) + [row.note]
    }
    var widths = header.map(\.count)
    for row in cells {
        for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ values: [String]) -> String {
        values.enumerated().map { index, value in
            value.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    print(line(header))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for row in cells { print(line(row)) }
}

/// A benchmark that could not produce a figure, with the reason.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
    init(description: String) { self.description = description }
}
