import Foundation

/// The machine's one-minute load average, from /proc/loadavg, printed beside the latency
/// rows so that a tail measured under load says how loaded the machine was.
enum LoadAverage {
    /// The one-minute load average, or nil where /proc/loadavg cannot be read.
    static func read() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
            let first = text.split(separator: " ").first
        else { return nil }
        return Double(first)
    }

    /// The online cores.
    static var cores: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// "before → after", or "unknown".
    static func text(before: Double?, after: Double?) -> String {
        guard let before, let after else { return "unknown" }
        return String(format: "%.2f → %.2f", before, after)
    }
}
