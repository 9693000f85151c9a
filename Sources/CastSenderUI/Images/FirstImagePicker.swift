public import CastCore

/// The default picker: the first image, whatever the hints.
public struct FirstImagePicker: ImagePicker {
    /// Creates the picker.
    public init() {}

    public func image(for hints: ImageHints, from metadata: MediaMetadata) -> MediaImage? {
        metadata.images.first
    }
}
