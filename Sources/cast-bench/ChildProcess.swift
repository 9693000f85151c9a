import CBenchTrace
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output and error on pipes.
///
/// Every side of a cross-process benchmark is started this way, so the figures compare the
/// programs and not the ways they were started. Foundation's `Process` is not used: its
/// `waitUntilExit()` polls, which would blur the exit time by tens of milliseconds.
final class ChildProcess {
    let pid: pid_t
    /// When `posix_spawn` was called, CLOCK_MONOTONIC nanoseconds.
    let spawnedAt: UInt64
    private var stdoutFD: Int32
    private var stderrFD: Int32
    private var stderrBuffer: [UInt8] = []
    private var exited = false
    /// Follows the child to its exit when its peak memory was asked for.
    private let tracer: ExitTracer?

    /// What a finished child produced.
    struct Exit {
        var status: Int32
        var stdout: String
        var stderr: String
        /// When `wait4` returned, CLOCK_MONOTONIC nanoseconds.
        var exitedAt: UInt64
        /// The child's peak resident set in KiB: its `VmHWM` read at its exit when the child
        /// was started with `measuresPeakMemory`, else `ru_maxrss`, which for a child started
        /// with `posix_spawn` is at least this process's own peak (the child began in this
        /// process's address space, and Linux counts that space's peak at `exec`).
        var peakResidentKiB: Int = 0
        /// The CPU time the child used, user plus system, in seconds.
        var cpuSeconds: Double = 0
    }

    /// Starts `executable` with `arguments` and the current environment plus `environment`.
    /// With `measuresPeakMemory`, a thread of this process traces the child (ptrace) to stop
    /// it at its exit and read its `VmHWM` while its memory is still mapped; the child runs
    /// untouched until then.
    init(
        executable: String,
        arguments: [String],
        environment: [String: String] = [:],
        measuresPeakMemory: Bool = false
    ) throws {
        var stdoutPipe: [Int32] = [0, 0]
        var stderrPipe: [Int32] = [0, 0]
        guard pipe(&stdoutPipe) == 0 else { throw BenchmarkFailure("pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&stderrPipe) == 0 else {
            close(stdoutPipe[0])
            close(stdoutPipe[1])
            throw BenchmarkFailure("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        for fd in stdoutPipe + stderrPipe { posix_spawn_file_actions_addclose(&actions, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Children get a clean signal mask and default handlers, whatever the parent blocks.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let start = MonotonicClock.nanoseconds()
        var tracer: ExitTracer?
        let result: Int32
        if measuresPeakMemory {
            let traced = ExitTracer(path: executable, argv: argv, envp: envp, out: stdoutPipe[1], err: stderrPipe[1])
            (child, result, tracer) = (traced.pid, traced.pid > 0 ? 0 : traced.spawnError, traced)
        } else {
            result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        }
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard result == 0 else {
            close(stdoutPipe[0])
            close(stderrPipe[0])
            throw BenchmarkFailure("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        spawnedAt = start
        stdoutFD = stdoutPipe[0]
        stderrFD = stderrPipe[0]
        self.tracer = tracer
    }

    deinit {
        if !exited {
            Glibc.kill(pid, SIGKILL)
            if let tracer {
                _ = tracer.result()
            } else {
                var status: Int32 = 0
                waitpid(pid, &status, 0)
            }
        }
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
    }

    /// Reads standard error until a line satisfies `isWanted`, the stream ends, or the
    /// deadline passes; returns the lines read.
    func readStandardError(until isWanted: (String) -> Bool, timeout: Duration) -> (lines: [String], found: Bool) {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeout.seconds * 1e9)
        var lines: [String] = []
        while true {
            while let newline = stderrBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: stderrBuffer[..<newline], as: UTF8.self)
                stderrBuffer.removeSubrange(...newline)
                lines.append(line)
                if isWanted(line) { return (lines, true) }
            }
            let now = MonotonicClock.nanoseconds()
            guard now < deadline, stderrFD >= 0 else { return (lines, false) }
            var poller = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
            let waitMilliseconds = Int32(min(1000, (deadline - now) / 1_000_000 + 1))
            guard poll(&poller, 1, waitMilliseconds) >= 0 || errno == EINTR else { return (lines, false) }
            guard poller.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(stderrFD, &chunk, chunk.count)
            if count <= 0 {
                close(stderrFD)
                stderrFD = -1
                return (lines, false)
            }
            stderrBuffer += chunk[..<count]
        }
    }

    /// Reads both streams to their end and waits for the exit; kills the child (SIGKILL)
    /// when it outlasts `timeout`.
    func finish(timeout: Duration) -> Exit {
        let deadline = MonotonicClock.nanoseconds() + UInt64(timeout.seconds * 1e9)
        var output: [UInt8] = []
        var errors = stderrBuffer
        var killed = false
        while stdoutFD >= 0 || stderrFD >= 0 {
            let now = MonotonicClock.nanoseconds()
            if now >= deadline, !killed {
                Glibc.kill(pid, SIGKILL)
                killed = true
            }
            var pollers = [stdoutFD, stderrFD].filter { $0 >= 0 }.map {
                pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
            }
            let waitMilliseconds = killed ? 1000 : Int32(min(1000, (deadline - min(now, deadline)) / 1_000_000 + 1))
            if poll(&pollers, nfds_t(pollers.count), waitMilliseconds) < 0, errno != EINTR { break }
            for poller in pollers where poller.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(poller.fd, &chunk, chunk.count)
                if count > 0 {
                    if poller.fd == stdoutFD { output += chunk[..<count] } else { errors += chunk[..<count] }
                } else {
                    close(poller.fd)
                    if poller.fd == stdoutFD { stdoutFD = -1 } else { stderrFD = -1 }
                }
            }
        }
        var status: Int32 = 0
        var usage = rusage()
        var exitedAt: UInt64
        var peak: Int?
        if let tracer {
            let result = tracer.result()
            (status, usage, exitedAt, peak) = (result.status, result.usage, result.exitedAt, result.peakResidentKiB)
        } else {
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
            exitedAt = MonotonicClock.nanoseconds()
        }
        exited = true
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        var stderr = String(decoding: errors, as: UTF8.self)
        if killed { stderr += "\n(killed after \(timeout))" }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Exit(
            status: code,
            stdout: String(decoding: output, as: UTF8.self),
            stderr: stderr,
            exitedAt: exitedAt,
            peakResidentKiB: peak ?? Int(usage.ru_maxrss),
            cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime)
        )
    }

    /// Kills the child (SIGKILL) and reaps it.
    func terminate() {
        guard !exited else { return }
        Glibc.kill(pid, SIGKILL)
        if let tracer {
            _ = tracer.result()
        } else {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        exited = true
    }
}

/// A thread that starts one child and traces it to its exit: ptrace requests must come from
/// the tracer thread, so this thread forks the child (which asks to be traced before its
/// exec), waits for every stop, reads `VmHWM` at the exit stop, resumes the child and reaps
/// it. The child is traced from its first instruction, so even a run of a millisecond is
/// caught at its exit.
///
/// Signals the child receives on the way are delivered unchanged.
private final class ExitTracer: @unchecked Sendable {
    /// What the thread saw; written by the thread before `done` is signalled, read after.
    struct Result {
        var status: Int32 = 0
        var usage = rusage()
        var exitedAt: UInt64 = 0
        var peakResidentKiB: Int?
    }

    /// The child, or -1 when it could not be started (then `spawnError` says why).
    private(set) var pid: pid_t = -1
    private(set) var spawnError: Int32 = 0
    private let started = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var outcome = Result()
    private var collected: Result?

    /// Starts the thread, which starts the child; returns once the child exists (or failed).
    init(
        path: String,
        argv: [UnsafeMutablePointer<CChar>?],
        envp: [UnsafeMutablePointer<CChar>?],
        out: Int32,
        err: Int32
    ) {
        let command = Command(argv: argv, envp: envp)
        let thread = Thread { [self] in
            let child = command.argv.withUnsafeBufferPointer { arguments in
                command.envp.withUnsafeBufferPointer { environment in
                    cast_bench_spawn_traced(path, arguments.baseAddress, environment.baseAddress, out, err)
                }
            }
            pid = child
            spawnError = child > 0 ? 0 : errno
            started.signal()
            if child > 0 { outcome = Self.follow(child) }
            done.signal()
        }
        thread.name = "cast-bench exit tracer"
        thread.start()
        started.wait()
    }

    /// The C strings of the command, handed to the thread; they stay valid until `started`
    /// is signalled, because `init` waits for it and its caller frees them later.
    private struct Command: @unchecked Sendable {
        var argv: [UnsafeMutablePointer<CChar>?]
        var envp: [UnsafeMutablePointer<CChar>?]
    }

    /// Waits for the child's exit (once) and returns what the thread saw.
    func result() -> Result {
        if let collected { return collected }
        done.wait()
        collected = outcome
        return outcome
    }

    private static func follow(_ pid: pid_t) -> Result {
        var result = Result()
        var optionsSet = false
        while true {
            var status: Int32 = 0
            // __WALL: a traced child's stops are reported whatever kind of child it is.
            guard wait4(pid, &status, Int32(bitPattern: 0x4000_0000), &result.usage) >= 0 else {
                if errno == EINTR { continue }
                result.exitedAt = MonotonicClock.nanoseconds()
                return result
            }
            guard (status & 0xff) == 0x7f else {
                // Exited or killed.
                result.status = status
                result.exitedAt = MonotonicClock.nanoseconds()
                return result
            }
            let signal = (status >> 8) & 0xff
            let event = status >> 16
            if !optionsSet {
                // The first stop is the SIGTRAP of the exec that PTRACE_TRACEME asked for.
                optionsSet = true
                _ = cast_bench_trace_exit(pid)
                _ = cast_bench_trace_continue(pid, 0)
            } else if event == 6 {  // PTRACE_EVENT_EXIT
                result.peakResidentKiB = highWaterMark(pid)
                _ = cast_bench_trace_continue(pid, 0)
            } else if event != 0 {
                _ = cast_bench_trace_continue(pid, 0)
            } else {
                _ = cast_bench_trace_continue(pid, signal)
            }
        }
    }

    /// `VmHWM` of /proc/PID/status, in KiB.
    private static func highWaterMark(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}

/// CLOCK_MONOTONIC, the clock Python's `time.monotonic_ns()` reads, so timestamps taken in
/// different processes can be compared.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
