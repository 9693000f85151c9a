/// The characters of a box border.
public struct BoxStyle: Hashable, Sendable {
    /// The top-left corner.
    public var topLeft: Character
    /// The top-right corner.
    public var topRight: Character
    /// The bottom-left corner.
    public var bottomLeft: Character
    /// The bottom-right corner.
    public var bottomRight: Character
    /// The top and bottom edges.
    public var horizontal: Character
    /// The left and right edges.
    public var vertical: Character

    /// Creates a border from its six characters.
    public init(
        topLeft: Character,
        topRight: Character,
        bottomLeft: Character,
        bottomRight: Character,
        horizontal: Character,
        vertical: Character
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomLeft = bottomLeft
        self.bottomRight = bottomRight
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// `┌─┐│└┘`
    public static let single = BoxStyle(
        topLeft: "┌",
        topRight: "┐",
        bottomLeft: "└",
        bottomRight: "┘",
        horizontal: "─",
        vertical: "│"
    )
    /// `╭─╮│╰╯`
    public static let rounded = BoxStyle(
        topLeft: "╭",
        topRight: "╮",
        bottomLeft: "╰",
        bottomRight: "╯",
        horizontal: "─",
        vertical: "│"
    )
    /// `╔═╗║╚╝`
    public static let double = BoxStyle(
        topLeft: "╔",
        topRight: "╗",
        bottomLeft: "╚",
        bottomRight: "╝",
        horizontal: "═",
        vertical: "║"
    )
    /// `┏━┓┃┗┛`
    public static let heavy = BoxStyle(
        topLeft: "┏",
        topRight: "┓",
        bottomLeft: "┗",
        bottomRight: "┛",
        horizontal: "━",
        vertical: "┃"
    )
    /// `+-+|++`: for terminals without UTF-8.
    public static let ascii = BoxStyle(
        topLeft: "+",
        topRight: "+",
        bottomLeft: "+",
        bottomRight: "+",
        horizontal: "-",
        vertical: "|"
    )
}

extension ScreenBuffer {
    /// Draws a border around a rectangle, with an optional title in the top edge, and returns
    /// the rectangle inside the border.
    ///
    /// The title is drawn as ` Title ` two columns from the left corner, cut with `ellipsis`
    /// when the box is too narrow. The inside is left as it was: fill it first to clear it.
    @discardableResult
    public mutating func drawBox(
        _ rect: Rect,
        border: BoxStyle = .single,
        style: TextStyle = .plain,
        title: String? = nil,
        titleStyle: TextStyle? = nil,
        ellipsis: String = "…"
    ) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(origin: rect.origin, size: .zero) }
        let right = rect.maxX - 1
        let bottom = rect.maxY - 1
        for x in (rect.x + 1)..<right {
            put(border.horizontal, at: Point(x: x, y: rect.y), style: style)
            put(border.horizontal, at: Point(x: x, y: bottom), style: style)
        }
        for y in (rect.y + 1)..<bottom {
            put(border.vertical, at: Point(x: rect.x, y: y), style: style)
            put(border.vertical, at: Point(x: right, y: y), style: style)
        }
        put(border.topLeft, at: rect.origin, style: style)
        put(border.topRight, at: Point(x: right, y: rect.y), style: style)
        put(border.bottomLeft, at: Point(x: rect.x, y: bottom), style: style)
        put(border.bottomRight, at: Point(x: right, y: bottom), style: style)
        if let title, !title.isEmpty, rect.width >= 6 {
            let text = TextLayout.truncate(title, toWidth: rect.width - 6, ellipsis: ellipsis)
            write(" \(text) ", at: Point(x: rect.x + 2, y: rect.y), style: titleStyle ?? style, clip: rect)
        }
        return rect.inset(by: 1)
    }
}
