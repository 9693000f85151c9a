import Foundation
import Glibc

/// The time limit of a test step ran out.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var what: String
    var description: String { "deadline exceeded: \(what)" }
}

/// Runs `body`, cancelling it and throwing when it takes longer than `seconds`.
func withDeadline<T: Sendable>(
    _ seconds: Double,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(what: what)
        }
        return value
    }
}

/// Runs a program to completion within a deadline (killing it with SIGKILL past it) and
/// returns its exit status and output.
///
/// The child is started with `posix_spawn` and reaped with `waitpid`; its output goes to a
/// file, not a pipe, because a daemon it starts (a tmux server) may keep the output open.
@discardableResult
func runProgram(
    _ path: String,
    _ arguments: [String],
    environment: [String: String],
    deadline seconds: Double = 10
) throws -> (status: Int32, output: String) {
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("terminalui-output-\(getpid())-\(UInt64.random(in: 0...UInt64.max))").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaultSignals = sigset_t()
    sigemptyset(&defaultSignals)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] {
        sigaddset(&defaultSignals, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
        throw DeadlineExceeded(what: "posix_spawn \(path) failed with \(spawned)")
    }
    let end = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > end {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            throw DeadlineExceeded(what: "\(path) \(arguments.joined(separator: " "))")
        }
        usleep(5_000)
    }
    let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let data = FileManager.default.contents(atPath: outputPath) ?? Data()
    return (exitStatus, String(decoding: data, as: UTF8.self))
}

/// The repository's root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The first executable named `name` on `PATH`, or `nil`.
func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}
