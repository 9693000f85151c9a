/// The look of a cell: colours and attributes.
///
/// A `nil` colour means the terminal's default colour.
public struct TextStyle: Hashable, Sendable {
    /// The text colour, or `nil` for the terminal's default.
    public var foreground: Color?
    /// The background colour, or `nil` for the terminal's default.
    public var background: Color?
    /// Bold, dim, italic, underline and reverse.
    public var attributes: TextAttributes

    /// Creates a style.
    public init(foreground: Color? = nil, background: Color? = nil, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Default colours and no attribute.
    public static let plain = TextStyle()
    /// Bold text in default colours.
    public static let bold = TextStyle(attributes: .bold)
    /// Dim text in default colours.
    public static let dim = TextStyle(attributes: .dim)
    /// Reverse video in default colours: the usual mark of a focused item.
    public static let reverse = TextStyle(attributes: .reverse)

    /// A copy with the given attributes added.
    public func adding(_ extra: TextAttributes) -> TextStyle {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// A copy with another foreground colour.
    public func foreground(_ color: Color?) -> TextStyle {
        var copy = self
        copy.foreground = color
        return copy
    }

    /// A copy with another background colour.
    public func background(_ color: Color?) -> TextStyle {
        var copy = self
        copy.background = color
        return copy
    }
}
