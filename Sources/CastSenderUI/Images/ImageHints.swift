/// What an image is for (as `GCKUIImageHints`): its use and the size it will be drawn at.
public struct ImageHints: Sendable, Hashable {
    /// Where the image will be shown.
    public var use: ImageUse
    /// The size it will be drawn at, if known.
    public var preferredSize: ImageSize?

    /// Creates hints.
    public init(use: ImageUse, preferredSize: ImageSize? = nil) {
        self.use = use
        self.preferredSize = preferredSize
    }
}
