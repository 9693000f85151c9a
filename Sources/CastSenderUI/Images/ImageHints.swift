/// Where an image will be shown (as `GCKMediaMetadataImageType`).
///
/// An open set: apps may define their own uses.
public struct ImageUse: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A thumbnail in the Cast dialog (device chooser, stop-casting dialog).
    public static let castDialog = ImageUse(rawValue: "castDialog")
    /// The mini controller's thumbnail.
    public static let miniController = ImageUse(rawValue: "miniController")
    /// The expanded controller's full-screen background artwork.
    public static let expandedBackground = ImageUse(rawValue: "expandedBackground")
    /// Any other dialog.
    public static let dialog = ImageUse(rawValue: "dialog")

    public var description: String { rawValue }
}

/// A size in pixels.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)×\(height)" }
}

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
