import CastTime

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide resource limits a large fleet needs.
public enum ResourceLimits {
    /// Raises the soft limit of open file descriptors to the hard limit (each device holds
    /// three listening sockets plus one per connection).
    /// - Returns: the soft limit now in force.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        #if canImport(Glibc)
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(clamping: limit.rlim_cur)
        #else
        return 0
        #endif
    }
}
