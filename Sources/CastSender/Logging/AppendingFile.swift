#if canImport(Glibc)
import Glibc
#endif

/// A file open for appending, through its descriptor: what the log sink needs of a file
/// without `Foundation`'s `FileHandle`. Not synchronized: its owner holds it under a lock.
final class AppendingFile {
    private var descriptor: Int32

    /// Opens `path` for appending, creating it (mode 0644 before the umask) when missing.
    /// - Throws: the `errno` of the failed `open`, as text.
    init(path: String) throws(AppendingFileError) {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw AppendingFileError(errno: errno) }
    }

    deinit { close() }

    /// The file's size now (its end, where the next write goes).
    func size() throws(AppendingFileError) -> Int {
        let end = lseek(descriptor, 0, SEEK_END)
        guard end >= 0 else { throw AppendingFileError(errno: errno) }
        return Int(end)
    }

    /// Writes all of `bytes` (a short write continues; an interrupted one is retried).
    func write(_ bytes: [UInt8]) throws(AppendingFileError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure != 0 { throw AppendingFileError(errno: failure) }
    }

    /// Closes the file (later writes fail with `EBADF`).
    func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }
}

/// Why a file operation failed: the system's error number and its text.
struct AppendingFileError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String { String(cString: strerror(errno)) }
}

// The system calls under names of their own: inside the class, `write` and `close` are its methods.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
