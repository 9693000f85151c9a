import CCastSystem
import Foundation
import Glibc
import Testing

/// Drives `castvideos` as a person would: in a tmux session (typed keys, captured screen)
/// whose server runs in a loopback-only network namespace, so nothing the app or its virtual
/// device sends can leave the machine.
///
/// Every command has a deadline; children are killed with SIGKILL (Swift Testing children
/// inherit a mask that blocks SIGTERM). ``stop()`` kills the tmux server by its socket name.
final class TmuxDriver {
    let socketName: String
    let directory: URL
    private(set) var lastScreen = ""
    private var stopped = false

    /// The `castvideos` executable built next to the tests.
    static func appBinary(filePath: String = #filePath) -> String? {
        var candidates: [String] = []
        if let explicit = ProcessInfo.processInfo.environment["CASTVIDEOS_BINARY"] { candidates.append(explicit) }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("castvideos").path)
        candidates.append(
            testBinary.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("castvideos").path
        )
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/castvideos").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A new empty directory for one test's files (settings, logs).
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("castvideos-test-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts the app in a new tmux server inside `unshare -n`.
    /// - Parameters:
    ///   - arguments: the app's arguments (after the program name).
    ///   - directory: the test's directory (from ``makeDirectory()``), removed by ``stop()``.
    ///   - width: columns of the window.
    ///   - height: rows of the window.
    init(arguments: [String], directory: URL, width: Int = 110, height: Int = 32) throws {
        socketName = directory.lastPathComponent
        self.directory = directory
        guard let binary = TmuxDriver.appBinary() else {
            throw DriverError("castvideos binary not found (build it, or set CASTVIDEOS_BINARY)")
        }
        let appCommand =
            ([binary] + arguments).map(TmuxDriver.quote).joined(separator: " ")
            + " 2>" + TmuxDriver.quote(directory.appendingPathComponent("stderr.txt").path)
        let script = """
            ip link set lo up || exit 97
            unset NO_COLOR
            export CAST_DISCOVERY_INTERFACES=lo LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLORTERM=truecolor \
            SWIFT_BACKTRACE=enable=no
            exec tmux -L \(TmuxDriver.quote(socketName)) -f /dev/null new-session -d -x \(width) -y \(height) \
            \(TmuxDriver.quote(appCommand))
            """
        let result = try TmuxDriver.run("/usr/bin/unshare", ["-n", "sh", "-c", script], timeout: .seconds(20))
        guard result.status == 0 else {
            throw DriverError("could not start tmux in a network namespace (status \(result.status)): \(result.output)")
        }
    }

    deinit {
        stop()
    }

    /// Kills the tmux server (and with it the app) and removes the temporary directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? TmuxDriver.run("/usr/bin/tmux", ["-L", socketName, "kill-server"], timeout: .seconds(10))
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file path inside the test's temporary directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Types keys (tmux key names such as `Enter`, `Escape`, `Space`, `Down`, or literal text).
    func send(_ keys: String...) throws {
        let result = try TmuxDriver.run(
            "/usr/bin/tmux",
            ["-L", socketName, "send-keys", "-t", "0"] + keys,
            timeout: .seconds(10)
        )
        guard result.status == 0 else { throw DriverError("send-keys \(keys) failed: \(result.output)") }
        if keys.last == "Escape" {
            // A key typed right after Escape would be read as Alt plus that key.
            usleep(200_000)
        }
    }

    /// The screen as text.
    func capture() throws -> String {
        let result = try TmuxDriver.run(
            "/usr/bin/tmux",
            ["-L", socketName, "capture-pane", "-p", "-t", "0"],
            timeout: .seconds(10)
        )
        guard result.status == 0 else { throw DriverError("capture-pane failed: \(result.output)") }
        lastScreen = result.output
        return result.output
    }

    /// The screen with its colour escape sequences.
    func captureWithStyles() throws -> String {
        let result = try TmuxDriver.run(
            "/usr/bin/tmux",
            ["-L", socketName, "capture-pane", "-p", "-e", "-t", "0"],
            timeout: .seconds(10)
        )
        return result.output
    }

    /// Whether the tmux session still runs (the app has not quit).
    var isRunning: Bool {
        (try? TmuxDriver.run("/usr/bin/tmux", ["-L", socketName, "has-session", "-t", "0"], timeout: .seconds(10))
            .status) == 0
    }

    /// Polls the screen until `predicate` holds, for at most `timeout`. On failure, records an
    /// issue with the last screen and the app's standard error, and returns `nil`.
    @discardableResult
    func waitFor(
        _ what: String,
        timeout: Duration = .seconds(15),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> String? {
        let end = ContinuousClock.now + timeout
        while true {
            let screen = try capture()
            if predicate(screen) { return screen }
            if ContinuousClock.now >= end { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let stderr = (try? String(contentsOfFile: path("stderr.txt"), encoding: .utf8)) ?? ""
        Issue.record(
            "timed out after \(timeout) waiting for \(what)\n--- last screen ---\n\(lastScreen)\n--- stderr ---\n\(stderr)",
            sourceLocation: sourceLocation
        )
        return nil
    }

    /// Polls until the screen contains `text`.
    @discardableResult
    func waitFor(
        text: String,
        timeout: Duration = .seconds(15),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String? {
        try await waitFor("“\(text)”", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    // MARK: Processes

    struct DriverError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a short command and returns its exit status and output, killing it with SIGKILL
    /// at the deadline. Spawned with `posix_spawn` and reaped with `waitpid`, so nothing
    /// depends on how the test runner handles signals.
    static func run(
        _ executable: String,
        _ arguments: [String],
        timeout: Duration
    ) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmux-driver-\(UUID().uuidString).out"
        ).path
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: the tmux server outlives this call and would
        // keep other tests' pipes and sockets open.
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and default handlers.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGHUP)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw DriverError("cannot start \(executable): error \(spawned)") }
        let end = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { break }
            if reaped < 0, errno != EINTR { throw DriverError("waitpid failed for \(executable): errno \(errno)") }
            if ContinuousClock.now >= end {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw DriverError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout)")
            }
            usleep(5_000)
        }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, output)
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
