import CastNet

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Small files that hold the user's state (the saved session, the command line's
/// configuration): read with a size cap, written atomically and readable only by the user.
public enum PrivateFile {
    /// The largest file read (64 KiB): a saved session or a configuration is a few hundred
    /// bytes, so anything larger is refused before it is read into memory.
    public static let maximumSize = 64 * 1024

    /// What reading a file found.
    public enum ReadError: Error, Sendable, Hashable {
        /// The file is larger than the cap.
        case tooLarge(limit: Int)
        /// The file exists but cannot be read.
        case unreadable
    }

    /// The file's bytes, or `nil` when there is no file. The file is opened non-blocking and
    /// must be a regular file (a FIFO in its place is refused at once, never waited on).
    /// - Throws: ``ReadError/tooLarge(limit:)`` when it is larger than `limit` (checked from
    ///   its size first, then while reading), ``ReadError/unreadable`` for other failures
    ///   (not a regular file included).
    public static func read(_ url: URL, limit: Int = maximumSize) throws(ReadError) -> Data? {
        do {
            return Data(try LocalFile.read(path: url.path, limit: limit))
        } catch {
            switch error.kind {
            case .notFound: return nil
            case .tooLarge(let limit): throw .tooLarge(limit: limit)
            case .notRegularFile, .unreadable: throw .unreadable
            }
        }
    }

    /// Writes `data` to `url` atomically (a new file beside it, then `rename`) with mode
    /// 0600, creating the directory (0700) when missing.
    /// - Returns: whether the file was written.
    @discardableResult
    public static func write(_ data: Data, to url: URL) -> Bool {
        let directory = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        var written = 0
        let ok = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += count
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            return false
        }
        return true
    }
}
