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

    /// What a finished child produced.
    struct Exit {
        var status: Int32
        var stdout: String
        var stderr: String
        /// When `waitpid` returned, CLOCK_MONOTONIC nanoseconds.
        var exitedAt: UInt64
    }

    /// Starts `executable` with `arguments` and the current environment plus `environment`.
    init(executable: String, arguments: [String], environment: [String: String] = [:]) throws {
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
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
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
    }

    deinit {
        if !exited {
            Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
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
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitedAt = MonotonicClock.nanoseconds()
        exited = true
        let code: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        var stderr = String(decoding: errors, as: UTF8.self)
        if killed { stderr += "\n(killed after \(timeout))" }
        return Exit(status: code, stdout: String(decoding: output, as: UTF8.self), stderr: stderr, exitedAt: exitedAt)
    }

    /// Kills the child (SIGKILL) and reaps it.
    func terminate() {
        guard !exited else { return }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exited = true
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
