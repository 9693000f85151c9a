public import Foundation

/// Fetches images for the widgets (as `GCKUIImageCache`).
public protocol ImageCache: Sendable {
    /// The bytes of the image at `url`, from the cache or downloaded. Implementations say
    /// what cancelling the caller's task does (``DiskImageCache`` ends the wait with
    /// ``ImageCacheError/Kind/cancelled``).
    /// - Throws: ``ImageCacheError``.
    func image(for url: URL) async throws(ImageCacheError) -> [UInt8]
}
