public import CastCore

/// A named text-track style the track selector offers.
public struct TextTrackStylePreset: Sendable, Hashable, Identifiable {
    /// A stable identifier, e.g. `"large"`.
    public var id: String
    /// The name to show.
    public var name: String
    /// The style sent with EDIT_TRACKS_INFO.
    public var style: TextTrackStyle

    /// Creates a preset.
    public init(id: String, name: String, style: TextTrackStyle) {
        self.id = id
        self.name = name
        self.style = style
    }

    /// The receiver's usual look: white text, scale 1, on a translucent black background.
    public static let standard = TextTrackStylePreset(
        id: "standard",
        name: "Standard",
        style: TextTrackStyle(
            fontScale: 1,
            foregroundColor: .white,
            backgroundColor: CastColor(red: 0, green: 0, blue: 0, alpha: 0xBF),
            edgeType: .noEdge
        )
    )

    /// Larger text (scale 1.5) with an outline.
    public static let large = TextTrackStylePreset(
        id: "large",
        name: "Large",
        style: TextTrackStyle(
            fontScale: 1.5,
            foregroundColor: .white,
            backgroundColor: CastColor(red: 0, green: 0, blue: 0, alpha: 0xBF),
            edgeType: .outline,
            edgeColor: .black
        )
    )

    /// Yellow text on an opaque black background, the high-contrast look.
    public static let highContrast = TextTrackStylePreset(
        id: "high-contrast",
        name: "Yellow on black",
        style: TextTrackStyle(
            fontScale: 1.2,
            foregroundColor: CastColor(red: 0xFF, green: 0xFF, blue: 0x00),
            backgroundColor: .black,
            edgeType: .noEdge
        )
    )

    /// The presets offered by default, in order.
    public static let all: [TextTrackStylePreset] = [.standard, .large, .highContrast]
}
