import CastSync

#if canImport(Glibc)
import Glibc
#endif

/// A regular file opened once, for serving with ``HTTPResponse/Body/openFile(_:)``.
///
/// The path is resolved only here, with `O_NOFOLLOW`: a symbolic link in the last
/// component is refused, and replacing the file or its path afterwards does not change what
/// is served, since every response reads the open descriptor (at offsets, with `pread`).
/// The descriptor closes when the value is released or ``close()`` is called.
public final class HTTPServedFile: Sendable {
    /// Why a file could not be opened for serving.
    public struct OpenError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path given.
        public let path: String
        /// The system error number: `ELOOP` for a symbolic link, `EISDIR` or `EINVAL` for
        /// something that is not a regular file.
        public let errno: Int32

        public var description: String {
            let reason = errno == EINVAL ? "not a regular file" : String(cString: strerror(errno))
            return "cannot open '\(path)' for serving: \(reason)"
        }
    }

    private let descriptor: Locked<Int32>

    /// Opens `path` read-only, refusing a symbolic link and anything but a regular file.
    /// - Throws: ``OpenError``.
    public init(path: String) throws(OpenError) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { throw OpenError(path: path, errno: Glibc.errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = Glibc.errno
            Glibc.close(fd)
            throw OpenError(path: path, errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(fd)
            throw OpenError(path: path, errno: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        descriptor = Locked(fd)
    }

    deinit { close() }

    /// Closes the descriptor; later responses for this file are 404.
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    /// A new descriptor for one response (sharing the open file) and the file's current
    /// size, or `nil` once closed.
    func duplicate() -> (fd: Int32, size: Int)? {
        descriptor.withLock { fd -> (fd: Int32, size: Int)? in
            guard fd >= 0 else { return nil }
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return nil }
            var info = stat()
            guard fstat(copy, &info) == 0 else {
                Glibc.close(copy)
                return nil
            }
            return (copy, Int(info.st_size))
        }
    }
}
