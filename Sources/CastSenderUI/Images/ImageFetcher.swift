public import Foundation

/// Downloads image bytes; inject one into ``DiskImageCache`` to change how images are
/// fetched (a URLSession-based fetcher, a test double).
public protocol ImageFetcher: Sendable {
    /// The bytes at `url`.
    /// - Throws: ``ImageCacheError``.
    func fetch(_ url: URL) async throws(ImageCacheError) -> [UInt8]
}
