import CastCrypto
import CastNet
import CastSync
public import Foundation

/// Images kept on disk, bounded in size with least-recently-used eviction: the default
/// ``ImageCache``.
///
/// Files live in the user's cache directory (`$XDG_CACHE_HOME/swift-cast/images`, else
/// `~/.cache/swift-cast/images`), named by the SHA-256 of the URL; their modification time
/// records the last use, so the order survives relaunches. Concurrent requests for one URL
/// share one download.
public final class DiskImageCache: ImageCache {
    private typealias Waiter = CheckedContinuation<Result<[UInt8], ImageCacheError>, Never>

    /// One download and the callers waiting for it.
    private struct Download {
        var task: Task<Void, Never>?
        var waiters: [UUID: Waiter] = [:]
    }

    private struct Inner {
        var index: ImageCacheIndex
        var inFlight: [String: Download] = [:]
        var downloads = 0
        var joined = 0
    }

    /// The directory holding the images.
    public let directory: URL
    private let fetcher: any ImageFetcher
    private let inner: Locked<Inner>
    /// The cache's capacity, also the most one file read back may hold.
    private let maximumBytes: Int

    /// Creates a cache in `directory`, holding at most `maximumBytes`, downloading with
    /// `fetcher`; images already in the directory are kept (oldest evicted first when they
    /// exceed the limit).
    public init(
        directory: URL = DiskImageCache.defaultDirectory(),
        maximumBytes: Int = 32 << 20,
        fetcher: any ImageFetcher = HTTPImageFetcher()
    ) {
        self.directory = directory
        self.fetcher = fetcher
        self.maximumBytes = maximumBytes
        var index = ImageCacheIndex(capacity: maximumBytes)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var evicted: [String] = []
        for (name, size) in Self.existingFiles(in: directory) {
            evicted += index.insert(name, size: size)
        }
        inner = Locked(Inner(index: index))
        for name in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
    }

    /// `<cache>/<app>/images`, where `<cache>` is the user's cache directory as `FileManager`
    /// reports it (on Linux `$XDG_CACHE_HOME`, else `~/.cache`), or `base` when given.
    public static func defaultDirectory(appName: String = "swift-cast", base: URL? = nil) -> URL {
        let cache =
            base ?? FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return cache.appendingPathComponent(appName).appendingPathComponent("images")
    }

    /// The bytes the cache holds.
    public var totalBytes: Int { inner.withLock { $0.index.totalSize } }

    /// The number of images the cache holds.
    public var count: Int { inner.withLock { $0.index.count } }

    /// How many downloads were started (shared requests count once).
    public var downloadCount: Int { inner.withLock { $0.downloads } }

    /// How many requests joined a download already in flight.
    var joinedCount: Int { inner.withLock { $0.joined } }

    /// Whether the image at `url` is on disk.
    public func contains(_ url: URL) -> Bool {
        let key = Self.key(for: url)
        return inner.withLock { $0.index.contains(key) }
    }

    /// The bytes of the image at `url`: from disk when cached (the file's use time is
    /// refreshed), else downloaded once however many callers ask at the same time, then
    /// stored.
    ///
    /// Cancelling a caller's task ends its wait at once with
    /// ``ImageCacheError/Kind/cancelled``; the download carries on for the other callers and
    /// still fills the cache.
    /// - Throws: ``ImageCacheError``: why the download failed, or
    ///   ``ImageCacheError/Kind/cancelled``.
    public func image(for url: URL) async throws(ImageCacheError) -> [UInt8] {
        let key = Self.key(for: url)
        let file = directory.appendingPathComponent(key)
        let hit = inner.withLock { $0.index.touch(key) }
        if hit {
            // Non-blocking, a regular file only, at most the cache's size.
            if let data = try? LocalFile.read(path: file.path, limit: maximumBytes) {
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
                return data
            }
            inner.withLock { _ = $0.index.remove(key) }
        }
        let waiter = UUID()
        let cancelled = ImageCacheError(.cancelled, url: url.absoluteString, "the caller stopped waiting")
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let early = inner.withLock { inner -> Bool in
                    if Task.isCancelled { return true }
                    if inner.inFlight[key] != nil {
                        inner.joined += 1
                        inner.inFlight[key]?.waiters[waiter] = continuation
                        return false
                    }
                    inner.downloads += 1
                    inner.inFlight[key] = Download(waiters: [waiter: continuation])
                    let fetcher = self.fetcher
                    // The task takes the lock to finish, so it sees the entry made here.
                    inner.inFlight[key]?.task = Task { [weak self] in
                        let result: Result<[UInt8], ImageCacheError>
                        do throws(ImageCacheError) {
                            result = .success(try await fetcher.fetch(url))
                        } catch {
                            result = .failure(error)
                        }
                        self?.finish(key, result)
                    }
                    return false
                }
                if early { continuation.resume(returning: .failure(cancelled)) }
            }
        } onCancel: {
            let removed = inner.withLock { $0.inFlight[key]?.waiters.removeValue(forKey: waiter) }
            removed?.resume(returning: .failure(cancelled))
        }
        return try result.get()
    }

    private func finish(_ key: String, _ result: Result<[UInt8], ImageCacheError>) {
        if case .success(let bytes) = result { store(bytes, key: key) }
        let waiters = inner.withLock { $0.inFlight.removeValue(forKey: key)?.waiters.values.map { $0 } ?? [] }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    /// Deletes every cached image.
    public func removeAll() {
        let keys = inner.withLock { inner in
            let keys = inner.index.keysByUse
            for key in keys { _ = inner.index.remove(key) }
            return keys
        }
        for key in keys { try? FileManager.default.removeItem(at: directory.appendingPathComponent(key)) }
    }

    private func store(_ bytes: [UInt8], key: String) {
        let file = directory.appendingPathComponent(key)
        guard (try? Data(bytes).write(to: file, options: .atomic)) != nil else { return }
        let evicted = inner.withLock { $0.index.insert(key, size: bytes.count) }
        for victim in evicted { try? FileManager.default.removeItem(at: directory.appendingPathComponent(victim)) }
    }

    static func key(for url: URL) -> String {
        Digest.sha256(Array(url.absoluteString.utf8)).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined() + ".img"
    }

    private static func existingFiles(in directory: URL) -> [(name: String, size: Int)] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return [] }
        let files = names.filter { $0.hasSuffix(".img") }.compactMap { name -> (String, Int, Date)? in
            guard let attributes = try? manager.attributesOfItem(atPath: directory.appendingPathComponent(name).path),
                let size = (attributes[.size] as? NSNumber)?.intValue
            else { return nil }
            return (name, size, attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return files.sorted { $0.2 < $1.2 }.map { ($0.0, $0.1) }
    }
}
