/// The characters widgets draw with, in a Unicode and an ASCII variant.
public struct Glyphs: Hashable, Sendable {
    /// The border of boxes and dialogs.
    public var box: BoxStyle
    /// The mark appended to text cut short.
    public var ellipsis: String
    /// The look of progress and seek bars.
    public var bar: ProgressBar.Style
    /// The mark in front of the selected row of a list.
    public var selectionMarker: String
    /// The mark shown where a list has more items above.
    public var moreAbove: Character
    /// The mark shown where a list has more items below.
    public var moreBelow: Character

    /// Creates a glyph set.
    public init(
        box: BoxStyle,
        ellipsis: String,
        bar: ProgressBar.Style,
        selectionMarker: String,
        moreAbove: Character,
        moreBelow: Character
    ) {
        self.box = box
        self.ellipsis = ellipsis
        self.bar = bar
        self.selectionMarker = selectionMarker
        self.moreAbove = moreAbove
        self.moreBelow = moreBelow
    }

    /// Box drawing characters, `…`, block progress bars, `›`, `↑` and `↓`.
    public static let unicode = Glyphs(
        box: .single,
        ellipsis: "…",
        bar: .blocks,
        selectionMarker: "›",
        moreAbove: "↑",
        moreBelow: "↓"
    )
    /// `+-|` boxes, `...`, `[=====>    ]` bars, `>`, `^` and `v`: safe on any terminal.
    public static let ascii = Glyphs(
        box: .ascii,
        ellipsis: "...",
        bar: .ascii,
        selectionMarker: ">",
        moreAbove: "^",
        moreBelow: "v"
    )

    /// The glyph set that suits the given terminal.
    public static func `for`(_ capabilities: TerminalCapabilities) -> Glyphs {
        capabilities.unicode ? .unicode : .ascii
    }
}
