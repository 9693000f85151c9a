import CastSender
import CastSync
import Foundation

/// Appends SDK log lines to a file as `location: function - message`, as the codelab's logger
/// delegate prints them (a terminal app cannot print over its own screen).
final class FileLogSink: CastLogSink {
    private let handle: Locked<FileHandle?>

    init(path: String) {
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let handle = FileHandle(forWritingAtPath: path)
        _ = try? handle?.seekToEnd()
        self.handle = Locked(handle)
    }

    func log(_ entry: CastLogEntry) {
        let metadata =
            entry.metadata.isEmpty
            ? ""
            : " " + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "[\(entry.level)] \(entry.location): \(entry.function) - \(entry.message)\(metadata)\n"
        handle.withLock { try? $0?.write(contentsOf: Data(line.utf8)) }
    }
}
