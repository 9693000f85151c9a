#if canImport(Glibc)
import Glibc
#endif

/// Reads a small local file the user named (subtitles, trust roots, a configuration, a saved
/// session, a catalog, a theme) without ever blocking on it or holding more than a cap.
///
/// The file is opened non-blocking (`O_NONBLOCK`), so a FIFO or a device node whose other
/// end never comes does not hang the open; the opened descriptor is checked to be a regular
/// file (`fstat`, so no other file can be swapped in between the check and the read); its
/// size is checked against the cap before reading, and the read stops one byte past the cap
/// in case the file grows meanwhile.
package enum LocalFile {
    /// The bytes of the regular file at `path`, at most `limit` of them.
    /// - Throws: ``LocalFileError``: missing, not a regular file (naming what it is), over
    ///   the limit, or unreadable.
    package static func read(path: String, limit: Int) throws(LocalFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            throw LocalFileError(path: path, kind: code == ENOENT || code == ENOTDIR ? .notFound : .unreadable(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw LocalFileError(path: path, kind: .unreadable(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw LocalFileError(path: path, kind: .notRegularFile(LocalFileError.kindName(info.st_mode)))
        }
        guard info.st_size <= limit else { throw LocalFileError(path: path, kind: .tooLarge(limit: limit)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LocalFileError(path: path, kind: .unreadable(errno))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else { throw LocalFileError(path: path, kind: .tooLarge(limit: limit)) }
        }
    }
}

/// Why ``LocalFile/read(path:limit:)`` could not read a file.
package struct LocalFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    package enum Kind: Sendable, Hashable {
        /// Nothing is at the path.
        case notFound
        /// Something other than a regular file is: a FIFO, a directory, a device, a socket.
        case notRegularFile(String)
        /// The file is larger than the cap.
        case tooLarge(limit: Int)
        /// Opening or reading failed with this `errno`.
        case unreadable(Int32)
    }

    /// The path given.
    package let path: String
    /// What was wrong.
    package let kind: Kind

    /// What was wrong, without the path.
    package var reason: String {
        switch kind {
        case .notFound: "no such file"
        case .notRegularFile(let what): "not a regular file (\(what))"
        case .tooLarge(let limit): "larger than \(LocalFileError.size(limit))"
        case .unreadable(let code): "cannot be read: \(String(cString: strerror(code)))"
        }
    }

    package var description: String { "\(path): \(reason)" }

    /// `limit` bytes in the largest whole unit.
    static func size(_ limit: Int) -> String {
        if limit >= 1 << 20, limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
        if limit >= 1 << 10, limit % (1 << 10) == 0 { return "\(limit >> 10) KiB" }
        return "\(limit) bytes"
    }

    /// What a file of mode `mode` is, in words.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
