import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A helper process started by a test, stopped with SIGKILL (Swift Testing children
/// inherit a mask that blocks SIGTERM) and never left running past its deadline.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let collected = LockedBytes()
    private var reaped = false

    init(_ executable: String, _ arguments: [String], deadline: Duration = .seconds(60)) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = Pipe()
        let collected = self.collected
        output.fileHandleForReading.readabilityHandler = { handle in
            collected.append(handle.availableData)
        }
        try process.run()
        let pid = process.processIdentifier
        let seconds = Double(deadline.components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            _ = Glibc.kill(pid, SIGKILL)
        }
    }

    /// Everything the child wrote to stdout and stderr so far.
    var outputText: String { String(decoding: collected.bytes, as: UTF8.self) }

    /// Writes to the child's standard input.
    func write(_ text: String) {
        (process.standardInput as? Pipe)?.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Waits until the child's output contains `text`, for at most `timeout`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(20)) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: timeout)
        while clock.now < end {
            if outputText.contains(text) { return true }
            if !process.isRunning { return outputText.contains(text) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Kills the child and reaps it.
    func kill() {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        guard !reaped else { return }
        reaped = true
        output.fileHandleForReading.readabilityHandler = nil
        // The child is gone: whatever it wrote is in the pipe, up to end of file.
        collected.append(output.fileHandleForReading.readDataToEndOfFile())
    }

    /// Waits for the child to exit by itself, killing it after `timeout`.
    func waitForExit(timeout: Duration = .seconds(30)) async -> Int32 {
        let clock = ContinuousClock()
        let end = clock.now.advanced(by: timeout)
        while process.isRunning && clock.now < end {
            try? await Task.sleep(for: .milliseconds(20))
        }
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
