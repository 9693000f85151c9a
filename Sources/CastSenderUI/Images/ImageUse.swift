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
