import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Resource figures of one process at one instant, read from `/proc`.
struct FleetProcessSample: Sendable {
    /// Resident set size (`VmRSS`), in bytes.
    var residentBytes: Int
    /// Threads (`/proc/PID/task` entries).
    var threads: Int
    /// Open file descriptors (`/proc/PID/fd` entries, the one used to list them included).
    var descriptors: Int
    /// User plus system CPU time consumed so far, in seconds.
    var cpuSeconds: Double

    /// Samples this process; CPU time comes from `getrusage`.
    static func current() -> FleetProcessSample? {
        guard var sample = read(directory: "/proc/self") else { return nil }
        var usage = rusage()
        if getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 {
            sample.cpuSeconds = usage.ru_utime.seconds + usage.ru_stime.seconds
        }
        return sample
    }

    /// Samples another process; CPU time comes from `/proc/PID/stat`. `nil` once it is gone.
    static func of(pid: pid_t) -> FleetProcessSample? {
        read(directory: "/proc/\(pid)")
    }

    private static func read(directory: String) -> FleetProcessSample? {
        guard let status = try? String(contentsOfFile: directory + "/status", encoding: .utf8) else { return nil }
        var resident = 0
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kibibytes = Int(fields[1]) { resident = kibibytes * 1024 }
        }
        let files = FileManager.default
        let threads = (try? files.contentsOfDirectory(atPath: directory + "/task").count) ?? 0
        let descriptors = (try? files.contentsOfDirectory(atPath: directory + "/fd").count) ?? 0
        return FleetProcessSample(
            residentBytes: resident,
            threads: threads,
            descriptors: descriptors,
            cpuSeconds: statCPUSeconds(directory: directory) ?? 0
        )
    }

    /// `utime + stime` of `/proc/PID/stat` (fields 14 and 15, counted after the command name,
    /// which may hold spaces and parentheses).
    private static func statCPUSeconds(directory: String) -> Double? {
        guard let stat = try? String(contentsOfFile: directory + "/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }
}

extension timeval {
    fileprivate var seconds: Double { Double(tv_sec) + Double(tv_usec) / 1e6 }
}
