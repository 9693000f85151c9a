public import CastCore

/// Picks by size: the smallest image at least as large as the preferred size (in both
/// dimensions), else the largest; images without dimensions are chosen only when no image
/// has them. Without a preferred size, the first image.
public struct BestFitImagePicker: ImagePicker {
    /// Creates the picker.
    public init() {}

    public func image(for hints: ImageHints, from metadata: MediaMetadata) -> MediaImage? {
        guard let wanted = hints.preferredSize else { return metadata.images.first }
        let sized = metadata.images.compactMap { image -> (image: MediaImage, width: Int, height: Int)? in
            guard let width = image.width, let height = image.height, width > 0, height > 0 else { return nil }
            return (image, width, height)
        }
        guard !sized.isEmpty else { return metadata.images.first }
        let area = { (entry: (image: MediaImage, width: Int, height: Int)) in entry.width * entry.height }
        let large = sized.filter { $0.width >= wanted.width && $0.height >= wanted.height }
        // `min`/`max` keep the first of equal elements, so ties go to the earlier image.
        if let smallest = large.min(by: { area($0) < area($1) }) { return smallest.image }
        return sized.max(by: { area($0) < area($1) })?.image
    }
}
