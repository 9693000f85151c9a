public import CastSender
import CastSync

extension CastContext {
    private static let imagePickerKey = "CastSenderUI.imagePicker"
    private static let imageCacheKey = "CastSenderUI.imageCache"

    /// The image picker the widgets made for this context use (as GCK's `imagePicker`): the
    /// mini controller's thumbnail, the expanded controller's artwork and the Cast dialog's
    /// image. Defaults to ``FirstImagePicker``; assign it again to restore the default.
    public var imagePicker: any ImagePicker {
        get { attachments.withLock { $0[Self.imagePickerKey] as? any ImagePicker } ?? FirstImagePicker() }
        set { attachments.withLock { $0[Self.imagePickerKey] = newValue } }
    }

    /// The image cache those widgets fetch images through (as GCK's `imageCache`). Defaults
    /// to a ``DiskImageCache`` in `CastOptions.cacheDirectory` (else the user's cache
    /// directory), made on first use.
    public var imageCache: any ImageCache {
        get {
            attachments.withLock { attachments in
                if let cache = attachments[Self.imageCacheKey] as? any ImageCache { return cache }
                let cache = DiskImageCache(directory: DiskImageCache.defaultDirectory(base: options.cacheDirectory))
                attachments[Self.imageCacheKey] = cache
                return cache
            }
        }
        set { attachments.withLock { $0[Self.imageCacheKey] = newValue } }
    }
}
