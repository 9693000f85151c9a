import CastTestSupport
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
    /// Wakes the screen waits: notified at each write the pane's program makes to the
    /// terminal (tmux pipes the pane's output to `output.raw`), and when that ends.
    private var outputWatch: FileChangeWatch?

    /// The `castvideos` executable: `CASTVIDEOS_BINARY`, else the one built next to the tests.
    static func appBinary() -> String? {
        RepositoryPaths.builtExecutable("castvideos", overriddenBy: "CASTVIDEOS_BINARY")
    }

    /// The cache the tests' apps share (`XDG_CACHE_HOME` unless a test gives its own): the
    /// built-in catalog's pictures and videos are made once for the whole run.
    static let sharedCacheDirectory = RepositoryPaths.root.appendingPathComponent(".build/castvideos-test-cache")

    /// Where the screens the tests look at are saved (``saveCapture(_:)``).
    static let artifactsDirectory = RepositoryPaths.root.appendingPathComponent(".build/artifacts/castvideos")

    private static let mediaPreparation = Task { () -> String in
        guard let binary = appBinary() else { return "castvideos binary not found" }
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = sharedCacheDirectory.path
        let result = try? await runProgram(
            binary,
            ["--make-media"],
            environment: environment,
            deadline: TestTiming.scaled(.seconds(600))
        )
        return result.map { "status \($0.status): \($0.output)" } ?? "castvideos --make-media did not finish"
    }

    /// Makes the built-in catalog's pictures and (with ffmpeg) videos into the shared cache,
    /// once for the test process (`castvideos --make-media`); returns what it printed.
    @discardableResult
    static func prepareBuiltInMedia() async -> String { await mediaPreparation.value }

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
    ///   - environment: more variables for the app (and the prelude).
    ///   - prelude: shell commands run in the namespace before tmux starts, such as a
    ///     loopback server; a background process it starts must write its PID to
    ///     `$PIDS` (`echo $! >> "$PIDS"`) so ``stop()`` can kill it.
    ///   - inShell: run the app from an interactive `bash` with job control (typed as a
    ///     command line), so that Ctrl-Z stops it and `fg` continues it as for a person;
    ///     otherwise tmux runs the app directly.
    ///   - recordsOutput: copies every byte the pane receives, from before the app starts, to
    ///   `output.raw` in `directory` (``rawOutput()``); needs `inShell`.
    ///   - companion: a program started in the background inside the same namespace before
    ///     the app (a peer the app should find); its output goes to `companion.txt` in
    ///     `directory`, and ``stop()`` kills it. It must end by itself within its own deadline.
    init(
        arguments: [String],
        directory: URL,
        width: Int = 110,
        height: Int = 32,
        environment: [String: String] = [:],
        prelude: String = "",
        inShell: Bool = false,
        recordsOutput: Bool = false,
        companion: [String] = []
    ) async throws {
        socketName = directory.lastPathComponent
        self.directory = directory
        guard let binary = TmuxDriver.appBinary() else {
            throw DriverError("castvideos binary not found (build it, or set CASTVIDEOS_BINARY)")
        }
        let appCommand =
            ([binary] + arguments).map(TmuxDriver.quote).joined(separator: " ")
            + " 2>" + TmuxDriver.quote(directory.appendingPathComponent("stderr.txt").path)
        var environment = environment
        if environment["XDG_CACHE_HOME"] == nil {
            environment["XDG_CACHE_HOME"] = TmuxDriver.sharedCacheDirectory.path
        }
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)=\(TmuxDriver.quote($0.value))" }
            .joined(separator: "\n")
        let pids = directory.appendingPathComponent("pids.txt").path
        let paneCommand = inShell ? "bash --norc --noprofile -i" : appCommand
        let companionLine =
            companion.isEmpty
            ? ""
            : companion.map(TmuxDriver.quote).joined(separator: " ") + " </dev/null >"
                + TmuxDriver.quote(directory.appendingPathComponent("companion.txt").path)
                + " 2>&1 & echo $! >> \"$PIDS\""
        // Every test records the pane's output: its writes are what wakes a wait for the
        // screen (`recordsOutput` only says that the test reads them). The pipe is set in
        // the same command list as the session, so an app that exits at once (a bad
        // option) cannot end the server before the pipe exists.
        _ = recordsOutput
        let raw = directory.appendingPathComponent("output.raw").path
        _ = FileManager.default.createFile(atPath: raw, contents: nil)
        outputWatch = try FileChangeWatch(path: raw)
        let pipeCommand = TmuxDriver.quote("cat >> \(TmuxDriver.quote(raw))")
        let script = """
            ip link set lo up || exit 97
            unset NO_COLOR
            export CAST_DISCOVERY_INTERFACES=lo LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLORTERM=truecolor \
            SWIFT_BACKTRACE=enable=no PS1='$ ' PIDS=\(TmuxDriver.quote(pids))
            \(exports)
            \(companionLine)
            \(prelude)
            exec tmux -L \(TmuxDriver.quote(socketName)) -f /dev/null new-session -d -x \(width) -y \(height) \
            \(TmuxDriver.quote(paneCommand)) \\; pipe-pane -t 0 -o \(pipeCommand)
            """
        let result = try await runProgram("/usr/bin/unshare", ["-n", "sh", "-c", script], deadline: .seconds(60))
        guard result.status == 0 else {
            throw DriverError("could not start tmux in a network namespace (status \(result.status)): \(result.output)")
        }
        if inShell {
            try await sendLiteral(appCommand)
            try await send("Enter")
        }
    }

    /// The bytes the pane received since the app was started (with `recordsOutput`).
    func rawOutput() -> [UInt8] {
        (try? Data(contentsOf: directory.appendingPathComponent("output.raw"))).map(Array.init) ?? []
    }

    deinit {
        stop()
    }

    /// Kills the tmux server (and with it the app) and removes the temporary directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        outputWatch?.stop()
        // Synchronous (it runs from deinit too), and quick: the server only has to be told.
        let killServer = Process()
        killServer.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        killServer.arguments = ["-L", socketName, "kill-server"]
        killServer.standardOutput = FileHandle.nullDevice
        killServer.standardError = FileHandle.nullDevice
        if (try? killServer.run()) != nil { killServer.waitUntilExit() }
        // Background processes of the prelude, by the PIDs they wrote (never by name).
        let pids = (try? String(contentsOf: directory.appendingPathComponent("pids.txt"), encoding: .utf8)) ?? ""
        for pid in pids.split(separator: "\n").compactMap({ pid_t($0.trimmingCharacters(in: .whitespaces)) })
        where pid > 1 {
            kill(pid, SIGKILL)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Types `text` as it is (no key names: `-` and `Enter` are the characters).
    func sendLiteral(_ text: String) async throws {
        let result = try await runProgram(
            "/usr/bin/tmux",
            ["-L", socketName, "send-keys", "-t", "0", "-l", "--", text],
            deadline: .seconds(30)
        )
        guard result.status == 0 else { throw DriverError("send-keys -l failed: \(result.output)") }
    }

    /// A file path inside the test's temporary directory.
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Types keys (tmux key names such as `Enter`, `Escape`, `Space`, `Down`, or literal text).
    func send(_ keys: String...) async throws {
        let result = try await runProgram(
            "/usr/bin/tmux",
            ["-L", socketName, "send-keys", "-t", "0"] + keys,
            deadline: .seconds(30)
        )
        guard result.status == 0 else { throw DriverError("send-keys \(keys) failed: \(result.output)") }
        if keys.last == "Escape" {
            // Real time on purpose: a terminal app tells Escape from the start of Alt plus a
            // key only by time (its escape timeout), so the next key must come later.
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// The screen as text.
    func capture() async throws -> String {
        let result = try await runProgram(
            "/usr/bin/tmux",
            ["-L", socketName, "capture-pane", "-p", "-t", "0"],
            deadline: .seconds(30)
        )
        guard result.status == 0 else { throw DriverError("capture-pane failed: \(result.output)") }
        lastScreen = result.output
        return result.output
    }

    /// The screen with its colour escape sequences.
    func captureWithStyles() async throws -> String {
        let result = try await runProgram(
            "/usr/bin/tmux",
            ["-L", socketName, "capture-pane", "-p", "-e", "-t", "0"],
            deadline: .seconds(30)
        )
        return result.output
    }

    /// Saves the screen as it is now under ``artifactsDirectory``: `NAME.txt` (the text) and
    /// `NAME.ans` (with its colours, which `scripts/render-captures.sh` turns into a picture),
    /// so a person can look at what the test saw. Returns the text.
    @discardableResult
    func saveCapture(_ name: String) async throws -> String {
        let text = try await capture()
        let styled = try await captureWithStyles()
        let directory = TmuxDriver.artifactsDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try text.write(to: directory.appendingPathComponent("\(name).txt"), atomically: true, encoding: .utf8)
        try styled.write(to: directory.appendingPathComponent("\(name).ans"), atomically: true, encoding: .utf8)
        return text
    }

    /// Whether the tmux session still runs (the app has not quit).
    var isRunning: Bool {
        get async {
            (try? await runProgram(
                "/usr/bin/tmux",
                ["-L", socketName, "has-session", "-t", "0"],
                deadline: .seconds(30)
            )
            .status) == 0
        }
    }

    /// Waits until the screen satisfies `predicate`, capturing it now and after each output
    /// of the pane's program, for at most `timeout` (times the run's slowdown).
    /// - Returns: the screen, or `nil` when the deadline passed first (nothing recorded).
    func screen(
        within timeout: Duration = .seconds(60),
        where predicate: (String) -> Bool
    ) async throws -> String? {
        let end = ContinuousClock.now + TestTiming.scaled(timeout)
        while true {
            let generation = outputWatch?.changes.generation ?? 0
            let screen = try await capture()
            if predicate(screen) { return screen }
            let remaining = end - ContinuousClock.now
            if remaining <= .zero { return nil }
            guard let changes = outputWatch?.changes else { return nil }
            _ = try? await withDeadline(remaining, "output of the pane") {
                await changes.waitForChange(after: generation)
            }
        }
    }

    /// Waits until the app has quit (its tmux session is gone), for at most `timeout` (times
    /// the run's slowdown): the end of the pane's output wakes the wait.
    /// - Returns: whether it quit.
    func waitForExit(within timeout: Duration = .seconds(30)) async -> Bool {
        let end = ContinuousClock.now + TestTiming.scaled(timeout)
        while true {
            let generation = outputWatch?.changes.generation ?? 0
            if !(await isRunning) { return true }
            let remaining = end - ContinuousClock.now
            guard remaining > .zero, let changes = outputWatch?.changes else { return false }
            _ = try? await withDeadline(remaining, "the end of the pane") {
                await changes.waitForChange(after: generation)
            }
        }
    }

    /// Waits for the screen (see ``screen(within:where:)``). On failure, records an issue
    /// with the last screen and the app's standard error, and returns `nil`.
    @discardableResult
    func waitFor(
        _ what: String,
        timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ predicate: (String) -> Bool
    ) async throws -> String? {
        if let screen = try await screen(within: timeout, where: predicate) { return screen }
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
        timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String? {
        try await waitFor("“\(text)”", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    // MARK: Processes

    struct DriverError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
