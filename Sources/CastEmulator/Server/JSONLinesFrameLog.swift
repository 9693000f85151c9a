import CastSync
public import Foundation

/// Writes each frame-log record as one line of JSON to a file handle (standard output or a file).
public final class JSONLinesFrameLog: FrameLogSink {
    private let handle: Locked<FileHandle>

    /// Creates a log that writes to `handle`.
    public init(handle: FileHandle) {
        self.handle = Locked(handle)
    }

    /// Creates a log that appends to the file at `path`, creating it if needed.
    /// - Throws: the error of opening the file.
    public convenience init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        self.init(handle: handle)
    }

    public func record(_ record: FrameLogRecord) {
        let line = Data((record.jsonLine + "\n").utf8)
        handle.withLock { try? $0.write(contentsOf: line) }
    }
}
