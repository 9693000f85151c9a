/// The attributes of one style node (as `GCKUIStyleAttributes`); `nil` members and missing
/// images are inherited from the parent node.
public struct StyleAttributes: Sendable, Hashable {
    // MARK: Colours

    /// The background.
    public var backgroundColor: StyleColor?
    /// The tint of icons and buttons.
    public var iconTintColor: StyleColor?
    /// Heading text.
    public var headingTextColor: StyleColor?
    /// Body text.
    public var bodyTextColor: StyleColor?
    /// Button text.
    public var buttonTextColor: StyleColor?
    /// Caption text.
    public var captionTextColor: StyleColor?
    /// The played part of a slider.
    public var sliderProgressColor: StyleColor?
    /// The buffered part of a slider.
    public var sliderSecondaryProgressColor: StyleColor?
    /// A slider that cannot seek.
    public var sliderUnseekableProgressColor: StyleColor?
    /// The slider's tooltip background.
    public var sliderTooltipBackgroundColor: StyleColor?
    /// The live indicator.
    public var liveIndicatorColor: StyleColor?

    // MARK: Text

    /// Headings.
    public var headingTextFont: StyleFont?
    /// Body text.
    public var bodyTextFont: StyleFont?
    /// Button text.
    public var buttonTextFont: StyleFont?
    /// Captions.
    public var captionTextFont: StyleFont?

    // MARK: Images

    /// Button images.
    public var images: [StyleButton: StyleImage]

    /// Creates attributes with nothing set.
    public init() {
        images = [:]
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { self == StyleAttributes() }

    /// These attributes with everything unset taken from `parent` (fonts member by member).
    public func inheriting(from parent: StyleAttributes) -> StyleAttributes {
        var merged = self
        for path in Self.colorPaths where merged[keyPath: path] == nil {
            merged[keyPath: path] = parent[keyPath: path]
        }
        for path in Self.fontPaths {
            if let own = merged[keyPath: path] {
                merged[keyPath: path] = own.inheriting(from: parent[keyPath: path])
            } else {
                merged[keyPath: path] = parent[keyPath: path]
            }
        }
        merged.images.merge(parent.images) { own, _ in own }
        return merged
    }

    /// The colour attributes by their JSON names.
    static var colors: [(name: String, path: WritableKeyPath<StyleAttributes, StyleColor?>)] {
        [
            ("backgroundColor", \.backgroundColor),
            ("iconTintColor", \.iconTintColor),
            ("headingTextColor", \.headingTextColor),
            ("bodyTextColor", \.bodyTextColor),
            ("buttonTextColor", \.buttonTextColor),
            ("captionTextColor", \.captionTextColor),
            ("sliderProgressColor", \.sliderProgressColor),
            ("sliderSecondaryProgressColor", \.sliderSecondaryProgressColor),
            ("sliderUnseekableProgressColor", \.sliderUnseekableProgressColor),
            ("sliderTooltipBackgroundColor", \.sliderTooltipBackgroundColor),
            ("liveIndicatorColor", \.liveIndicatorColor),
        ]
    }

    /// The text attributes by their JSON names.
    static var fonts: [(name: String, path: WritableKeyPath<StyleAttributes, StyleFont?>)] {
        [
            ("headingTextFont", \.headingTextFont),
            ("bodyTextFont", \.bodyTextFont),
            ("buttonTextFont", \.buttonTextFont),
            ("captionTextFont", \.captionTextFont),
        ]
    }

    private static var colorPaths: [WritableKeyPath<StyleAttributes, StyleColor?>] { colors.map(\.path) }
    private static var fontPaths: [WritableKeyPath<StyleAttributes, StyleFont?>] { fonts.map(\.path) }
}
