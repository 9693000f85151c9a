import CastTestSupport
import Foundation
import Glibc
import Testing

/// Runs `terminalui-demo` in a tmux pane as a person would: reads the screen with
/// capture-pane, types with send-keys, and checks that the terminal's settings are back as
/// they were after the program ends by Ctrl-C, by SIGTERM and by a crash.
@Suite(.requires(.tmux)) struct TmuxDemoTests {
    enum Ending: String, CaseIterable, Sendable {
        case controlC, sigterm, crash
    }

    /// A tmux server of its own, on a private socket.
    private struct Tmux {
        let executable: String
        let socket: String
        let environment: [String: String]
        /// The pane's output, piped to a file by ``pipeOutput(of:to:)``: each write wakes the
        /// screen waits.
        let output: FileChangeWatch

        @discardableResult
        func run(_ arguments: [String]) async throws -> String {
            let result = try await runProgram(
                executable,
                ["-S", socket, "-f", "/dev/null"] + arguments,
                environment: environment
            )
            guard result.status == 0 else {
                throw DeadlineExceeded(what: "tmux \(arguments.joined(separator: " ")) failed: \(result.output)")
            }
            return result.output
        }

        func capture() async throws -> String {
            try await run(["capture-pane", "-p", "-t", "demo"])
        }

        /// Pipes the pane's output to `path`, the file ``output`` watches.
        func pipeOutput(of pane: String, to path: String) async throws {
            try await run(["pipe-pane", "-t", pane, "-o", "cat >> '\(path)'"])
        }

        /// Captures the screen now and after each output of the pane until `condition` holds,
        /// for at most `timeout` seconds (times the run's slowdown).
        func waitForScreen(
            _ what: String,
            timeout: Double = 60,
            _ condition: (String) -> Bool
        ) async throws -> String {
            let end = ContinuousClock.now + TestTiming.scaled(.milliseconds(Int64(timeout * 1000)))
            var screen = ""
            while true {
                let generation = output.changes.generation
                screen = try await capture()
                if condition(screen) { return screen }
                let remaining = end - ContinuousClock.now
                if remaining <= .zero { break }
                _ = try? await withDeadline(remaining, "output of the pane") { [changes = output.changes] in
                    await changes.waitForChange(after: generation)
                }
            }
            throw DeadlineExceeded(what: "\(what); the screen shows:\n\(screen)")
        }

        func shutDown() {
            // Synchronous (it runs from a defer), and quick: the server only has to be told.
            let killServer = Process()
            killServer.executableURL = URL(fileURLWithPath: executable)
            killServer.arguments = ["-S", socket, "kill-server"]
            killServer.environment = environment
            killServer.standardOutput = FileHandle.nullDevice
            killServer.standardError = FileHandle.nullDevice
            if (try? killServer.run()) != nil { killServer.waitUntilExit() }
            unlink(socket)
        }
    }

    private static func demoExecutable() throws -> String {
        guard let path = RepositoryPaths.builtExecutable("terminalui-demo") else {
            throw DeadlineExceeded(
                what: "terminalui-demo not found beside the tests or in .build/debug; build it first"
            )
        }
        return path
    }

    @Test(arguments: Ending.allCases)
    func demoDrawsReadsKeysAndRestoresTheTerminal(ending: Ending) async throws {
        // The suite requires tmux: it is on PATH.
        let tmuxPath = try #require(RepositoryPaths.executableOnPath("tmux"))
        let demo = try Self.demoExecutable()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("terminalui-\(getpid())-\(ending.rawValue)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            stty -a > "$1/before"
            sh -c 'echo $$ > "$0/pid"; exec "$1"' "$1" "$2"
            echo "demo status $?"
            stty -a > "$1/after"
            echo DEMO-EXITED
            exec sleep 600
            """
        try script.write(to: directory.appendingPathComponent("run.sh"), atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.removeValue(forKey: "TMUX")
        environment.removeValue(forKey: "NO_COLOR")
        let outputPath = directory.appendingPathComponent("output.raw").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let tmux = Tmux(
            executable: tmuxPath,
            socket: directory.appendingPathComponent("tmux.sock").path,
            environment: environment,
            output: try FileChangeWatch(path: outputPath)
        )
        defer {
            tmux.shutDown()
            tmux.output.stop()
        }
        try await tmux.run([
            "new-session", "-d", "-s", "demo", "-x", "80", "-y", "24",
            "sh \(directory.appendingPathComponent("run.sh").path) \(directory.path) \(demo)",
        ])
        try await tmux.pipeOutput(of: "demo", to: outputPath)

        let first = try await tmux.waitForScreen("the demo's first frame") { $0.contains("keys: 0") }
        let lines = first.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix(" TerminalUI demo") == true)
        #expect(first.contains("┌─ Items ─"))
        #expect(first.contains("│› Item 1 "))
        #expect(first.contains("01:23 / 10:00"))
        #expect(first.contains("80x24"))
        let paneTTY = try await tmux.run(["display-message", "-p", "-t", "demo", "#{pane_tty}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let stty = try #require(RepositoryPaths.executableOnPath("stty"))
        let during = try await runProgram(stty, ["-a", "-F", paneTTY], environment: environment).output
        let rawFlags = during.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
        #expect(rawFlags.contains("-icanon") && rawFlags.contains("-echo") && rawFlags.contains("-isig"), "\(during)")

        try await tmux.run(["send-keys", "-t", "demo", "Down", "Down", "+"])
        let moved = try await tmux.waitForScreen("the demo reacting to keys") { $0.contains("keys: 3") }
        #expect(moved.contains("│› Item 3 "))
        #expect(moved.contains("│  Item 1 "))
        #expect(moved.contains("Last key: +"))
        #expect(moved.contains("01:53 / 10:00"))

        try await tmux.run(["send-keys", "-t", "demo", "d"])
        let dialog = try await tmux.waitForScreen("the dialog") { $0.contains("Confirm") }
        #expect(dialog.contains("[ Yes ]  [ No ]"))
        try await tmux.run(["send-keys", "-t", "demo", "Escape"])
        // The "Cancelled" toast lasts three seconds, which a capture starved on a loaded run can
        // miss: the key count and the dialog's absence last.
        _ = try await tmux.waitForScreen("the dialog closing") { $0.contains("keys: 5") && !$0.contains("[ Yes ]") }

        try await tmux.run(["resize-window", "-t", "demo", "-x", "60", "-y", "20"])
        _ = try await tmux.waitForScreen("the demo redrawn at the new size") { $0.contains("60x20") }

        switch ending {
        case .controlC:
            try await tmux.run(["send-keys", "-t", "demo", "C-c"])
        case .sigterm:
            let pidText = try String(contentsOf: directory.appendingPathComponent("pid"), encoding: .utf8)
            let pid = try #require(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(kill(pid, SIGTERM) == 0)
        case .crash:
            try await tmux.run(["send-keys", "-t", "demo", "x"])
        }
        let after = try await tmux.waitForScreen("the shell after the demo") { $0.contains("DEMO-EXITED") }
        #expect(!after.contains("Items"), "the alternate screen was left")
        switch ending {
        case .controlC: #expect(after.contains("demo status 0"))
        case .sigterm: #expect(after.contains("demo status 143"))
        case .crash: #expect(after.contains("demo status 132"))
        }
        let before = try String(contentsOf: directory.appendingPathComponent("before"), encoding: .utf8)
        let restored = try String(contentsOf: directory.appendingPathComponent("after"), encoding: .utf8)
        let flags = restored.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
        #expect(flags.contains("icanon"))
        #expect(flags.contains("echo"))
        #expect(flags.contains("isig"))
        #expect(flags.contains("icrnl"))
        #expect(flags.contains("opost"))
        #expect(
            restored.replacingOccurrences(of: "rows 20; columns 60", with: "rows 24; columns 80") == before,
            "stty -a differs after the demo"
        )
    }
}
