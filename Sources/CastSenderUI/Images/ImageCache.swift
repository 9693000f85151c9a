import Foundation

/// Fetches images for the widgets (as `GCKUIImageCache`).
public protocol ImageCache: Sendable {
    /// The bytes of the image at `url`, from the cache or downloaded.
    /// - Throws: ``ImageCacheError``.
    func image(for url: URL) async throws(ImageCacheError) -> [UInt8]
}
