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
