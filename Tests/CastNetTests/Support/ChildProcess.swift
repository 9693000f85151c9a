import CastSync
import CastTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A helper process started by a test, stopped with SIGKILL (Swift Testing children
/// inherit a mask that blocks SIGTERM) and never left running past its deadline.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let collected = LockedBytes()
    /// Notified at each chunk of output and at the exit.
    private let changes = ChangeSignal()
    private let reaped = Locked(false)
    /// Kills the child at its deadline; cancelled once the child is reaped, so the number
    /// of a finished child (which the kernel may give to another process) is never signalled.
    private let deadlineKill: DispatchWorkItem

    init(_ executable: String, _ arguments: [String], deadline: Duration = .seconds(120)) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        keepFromOtherChildren(output)
        keepFromOtherChildren(input)
        let (collected, changes) = (self.collected, self.changes)
        output.fileHandleForReading.readabilityHandler = { handle in
            collected.append(handle.availableData)
            changes.notify()
        }
        process.notifyOnExit(changes)
        try process.run()
        let pid = process.processIdentifier
        deadlineKill = DispatchWorkItem { _ = Glibc.kill(pid, SIGKILL) }
        let seconds = Double(deadline.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: deadlineKill)
    }

    /// Everything the child wrote to stdout and stderr so far.
    var outputText: String { String(decoding: collected.bytes, as: UTF8.self) }

    /// Writes to the child's standard input; a child that has exited loses the text (the
    /// broken pipe does not kill the test process).
    func write(_ text: String) {
        writeIgnoringBrokenPipe(input.fileHandleForWriting.fileDescriptor, Array(text.utf8))
    }

    /// Waits until the child's output contains `text`, for at most `timeout`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(60)) async -> Bool {
        try? await changes.wait(until: "output containing \(text)", within: timeout) { [self] in
            outputText.contains(text) || !process.isRunning
        }
        return outputText.contains(text)
    }

    /// Kills the child and reaps it.
    func kill() {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        deadlineKill.cancel()
        let first = reaped.withLock { reaped in
            defer { reaped = true }
            return !reaped
        }
        guard first else { return }
        output.fileHandleForReading.readabilityHandler = nil
        // The child is gone: what it wrote is in the pipe. Read it without waiting for end of
        // file, which never comes while another process holds a copy of the write end.
        let fd = output.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                collected.append(Data(buffer[0..<count]))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
    }

    /// Waits for the child to exit by itself, killing it after `timeout`.
    func waitForExit(timeout: Duration = .seconds(30)) async -> Int32 {
        _ = await process.waitForExit(within: timeout)
        kill()
        return process.terminationStatus
    }
}

/// Bytes appended from a reader thread and read from a test.
final class LockedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []

    func append(_ data: Data) {
        lock.lock()
        storage.append(contentsOf: data)
        lock.unlock()
    }

    var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

/// Marks both ends of `pipe` close-on-exec. The child still gets its end (the spawn copies it
/// onto a standard descriptor, which clears the flag); a process spawned at the same time by
/// another test does not, so it cannot hold the pipe open after the child exits.
func keepFromOtherChildren(_ pipe: Pipe) {
    for fd in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}

/// Writes `bytes` to a pipe whose reader may be gone. A write to such a pipe raises
/// SIGPIPE, whose default action ends the whole test process; the signal is blocked on this
/// thread for the write and a pending one is discarded, so the write just fails.
func writeIgnoringBrokenPipe(_ fd: Int32, _ bytes: [UInt8]) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw in
            Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            break
        }
    }
    // A SIGPIPE raised by the write above is pending on this thread: take it before unblocking.
    var pending = sigset_t()
    sigpending(&pending)
    if sigismember(&pending, SIGPIPE) == 1 {
        var immediately = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &immediately)
    }
}
