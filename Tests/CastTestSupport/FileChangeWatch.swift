import CCastSystem
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Notifies a ``ChangeSignal`` each time a file is written, through the kernel's inotify: how
/// a test waits for a child's output that goes to a file (a daemon such as a tmux server may
/// keep a pipe open for ever; a file has no such problem) without polling the file.
///
/// A thread of its own blocks in `poll` on the inotify descriptor and on a pipe that
/// ``stop()`` writes to; it ends with the watch.
package final class FileChangeWatch: Sendable {
    /// Notified after each write to the file (and once more at ``stop()``).
    package let changes = ChangeSignal()
    private let inotify: Int32
    private let wake: (read: Int32, write: Int32)
    private let stopped = Mutex(false)

    /// Starts watching `path`, which must exist.
    /// - Throws: ``ProgramRunError`` when inotify cannot watch the file.
    package init(path: String) throws(ProgramRunError) {
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { throw ProgramRunError(description: "inotify_init1: errno \(errno)") }
        guard inotify_add_watch(inotify, path, UInt32(IN_MODIFY | IN_CLOSE_WRITE)) >= 0 else {
            close(inotify)
            throw ProgramRunError(description: "inotify_add_watch \(path): errno \(errno)")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(inotify)
            throw ProgramRunError(description: "pipe: errno \(errno)")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
        let (inotify, wake, changes) = (self.inotify, self.wake, self.changes)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var entries = [
                    pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                ]
                if poll(&entries, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if entries[1].revents != 0 { break }
                if entries[0].revents != 0 {
                    _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
                    changes.notify()
                }
            }
            close(inotify)
            close(wake.read)
        }.start()
    }

    deinit { stop() }

    /// Stops the watch and its thread (once; later calls do nothing).
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        close(wake.write)
        changes.notify()
    }
}

extension FileChangeWatch {
    /// Waits until `condition` holds, checking it now and after each write to the file at
    /// `path`, for at most `timeout` (times ``TestTiming/slowdown``). A missing file is
    /// created empty first, so that a writer that appends (or truncates, as a shell's `2>`
    /// does) writes to the watched file.
    /// - Returns: whether `condition` held.
    package static func waitUntil(
        _ path: String,
        within timeout: Duration,
        _ condition: () -> Bool
    ) async -> Bool {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let watch = try? FileChangeWatch(path: path) else { return condition() }
        defer { watch.stop() }
        let limit = TestTiming.scaled(timeout)
        let end = ContinuousClock.now + limit
        // The deadline wakes the wait too.
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [changes = watch.changes] in changes.notify() }
        while true {
            let generation = watch.changes.generation
            if condition() { return true }
            if ContinuousClock.now >= end || Task.isCancelled { return false }
            await watch.changes.waitForChange(after: generation)
        }
    }
}
