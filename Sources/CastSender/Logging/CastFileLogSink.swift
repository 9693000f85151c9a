import CastSync

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A sink that appends log lines to a file, bounded in size, keeping older files as rotated
/// copies (as `GCKLogger`'s `fileLoggingEnabled`, `maxLogFileSize` and `maxLogFileCount`).
///
/// Each entry is one line, `[level] location: function - message key=value…`. When a line
/// would take the file past ``maximumFileSize``, the file becomes `NAME.1`, an earlier
/// `NAME.1` becomes `NAME.2`, and so on; the oldest beyond ``maximumFileCount`` files is
/// deleted, and writing continues in a new empty file. A line longer than the whole limit
/// is cut to fit.
///
/// ```swift
/// let logger = CastLogger()
/// logger.sink = try CastFileLogSink(url: logURL, maximumFileSize: 256 << 10, maximumFileCount: 3)
/// ```
public final class CastFileLogSink: CastLogSink {
    private struct State {
        var file: AppendingFile?
        var size: Int
    }

    /// The file written to.
    public let url: URL
    /// The largest size of one file, in bytes.
    public let maximumFileSize: Int
    /// How many files are kept: the current one and `maximumFileCount - 1` rotated copies.
    public let maximumFileCount: Int
    private let state: Locked<State>

    /// Opens (or creates) the file at `url` for appending; its directory is created when
    /// missing.
    /// - Parameters:
    ///   - url: the log file.
    ///   - maximumFileSize: the largest size of one file in bytes (at least 1 KiB; smaller
    ///     values count as 1 KiB). Defaults to 1 MiB.
    ///   - maximumFileCount: the files kept, current one included (at least 1). Defaults to 5.
    /// - Throws: ``CastError`` with code ``CastError/Code/invalidRequest`` naming the path
    ///   when the file cannot be opened for writing.
    public init(url: URL, maximumFileSize: Int = 1 << 20, maximumFileCount: Int = 5) throws(CastError) {
        self.url = url
        self.maximumFileSize = max(1024, maximumFileSize)
        self.maximumFileCount = max(1, maximumFileCount)
        let (file, size) = try Self.open(url)
        state = Locked(State(file: file, size: size))
    }

    deinit {
        state.withLock { $0.file?.close() }
    }

    /// The paths of the rotated copies, newest first (`NAME.1`, `NAME.2`, …), whether or not
    /// they exist.
    public var rotatedURLs: [URL] {
        (1..<maximumFileCount).map { URL(fileURLWithPath: url.path + ".\($0)") }
    }

    public func log(_ entry: CastLogEntry) {
        var line = Array(Self.format(entry).utf8)
        if line.count > maximumFileSize {
            line = Array(line.prefix(maximumFileSize - 1)) + [UInt8(ascii: "\n")]
        }
        state.withLock { state in
            if state.size > 0, state.size + line.count > maximumFileSize {
                rotate(&state)
            }
            guard let file = state.file else { return }
            do {
                try file.write(line)
                state.size += line.count
            } catch {
                // A full disk or a removed file: stop writing rather than fail every call.
                state.file = nil
            }
        }
    }

    /// The line written for `entry`, newline included.
    public static func format(_ entry: CastLogEntry) -> String {
        var line = "[\(entry.level)] \(entry.location): \(entry.function) - \(entry.message)"
        if !entry.metadata.isEmpty {
            line +=
                " " + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        return line.replacing("\n", with: "\\n") + "\n"
    }

    private func rotate(_ state: inout State) {
        state.file?.close()
        state.file = nil
        let manager = FileManager.default
        let copies = rotatedURLs
        if let oldest = copies.last { try? manager.removeItem(at: oldest) }
        for index in stride(from: copies.count - 1, to: 0, by: -1) {
            try? manager.moveItem(at: copies[index - 1], to: copies[index])
        }
        if let newest = copies.first {
            try? manager.moveItem(at: url, to: newest)
        } else {
            try? manager.removeItem(at: url)
        }
        if let (file, size) = try? Self.open(url) {
            state.file = file
            state.size = size
        }
    }

    private static func open(_ url: URL) throws(CastError) -> (AppendingFile, Int) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CastError(.invalidRequest, "log file \(url.path): cannot create its directory: \(error)")
        }
        let file: AppendingFile
        do {
            file = try AppendingFile(path: url.path)
        } catch {
            throw CastError(.invalidRequest, "log file \(url.path): cannot be opened for writing: \(error)")
        }
        do {
            return (file, try file.size())
        } catch {
            throw CastError(.invalidRequest, "log file \(url.path): cannot seek to its end: \(error)")
        }
    }
}
