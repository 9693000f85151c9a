/// Reads small files without Foundation.
enum FileBytes {
    /// The whole file, or `nil` when it cannot be read (missing, not a regular file, larger
    /// than `limit`).
    static func read(path: String, limit: Int) -> [UInt8]? {
        try? LocalFile.read(path: path, limit: limit)
    }
}
