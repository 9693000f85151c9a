import CCastSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program could not be started, or did not finish before its deadline.
package struct ProgramRunError: Error, CustomStringConvertible {
    package let description: String
}

/// Runs a program to completion and returns its exit status (128 + the signal number when
/// a signal ended it) and what it wrote to standard output and standard error.
///
/// The child is started with `posix_spawn`, with no signal blocked and the usual signals at
/// their default action (Swift Testing's own children inherit a mask that blocks SIGTERM
/// and SIGINT), and is awaited on a thread of its own (``awaitChildExit(_:deadline:)``); past
/// the deadline (times ``TestTiming/slowdown``) it is killed with SIGKILL.
/// Its output goes to a file, not a pipe, because a daemon it starts (a tmux server) may
/// keep the output open. `SWIFT_BACKTRACE=enable=no` is added to `environment`.
/// - Throws: ``ProgramRunError`` when the program cannot be started or runs past `deadline`.
@discardableResult
package func runProgram(
    _ path: String,
    _ arguments: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    deadline: Duration = .seconds(30)
) async throws(ProgramRunError) -> (status: Int32, output: String) {
    let outputPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("test-program-\(getpid())-\(UUID().uuidString).out").path
    defer { unlink(outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    // Nothing else of the test process: a daemon the program starts (a tmux server) outlives
    // this call and would keep other tests' pipes and sockets open.
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    var defaultSignals = sigset_t()
    sigemptyset(&defaultSignals)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] {
        sigaddset(&defaultSignals, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var environment = environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard spawned == 0 else { throw ProgramRunError(description: "cannot start \(path): error \(spawned)") }
    let (status, killed) = await awaitChildExit(pid, deadline: deadline)
    if killed {
        throw ProgramRunError(
            description: "\(path) \(arguments.joined(separator: " ")) did not finish within \(deadline)"
        )
    }
    let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    let data = FileManager.default.contents(atPath: outputPath) ?? Data()
    return (exitStatus, String(decoding: data, as: UTF8.self))
}
