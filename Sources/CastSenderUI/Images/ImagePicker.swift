public import CastCore

/// Chooses the image of media metadata to show for given hints (as `GCKUIImagePicker`).
public protocol ImagePicker: Sendable {
    /// The image to show, or `nil` when the metadata has none that fits.
    func image(for hints: ImageHints, from metadata: MediaMetadata) -> MediaImage?
}
