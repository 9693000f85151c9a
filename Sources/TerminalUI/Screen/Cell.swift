/// One cell of the screen: a character and its style.
///
/// A character two columns wide sits in a lead cell followed by a continuation cell, which
/// holds no character of its own.
public struct Cell: Hashable, Sendable {
    /// The character shown (a space for the continuation half of a wide character).
    public private(set) var character: Character
    /// Colours and attributes.
    public var style: TextStyle
    /// Columns taken from this cell on: 1, 2 for a wide character, 0 for a continuation cell.
    public private(set) var width: UInt8

    /// Creates a one-column cell. Characters that are not one column wide are replaced by `?`;
    /// use ``ScreenBuffer/put(_:at:style:clip:)`` for wide characters.
    public init(_ character: Character = " ", style: TextStyle = .plain) {
        self.character = CharacterWidth.of(character) == 1 ? ScreenBuffer.sanitized(character) : "?"
        self.style = style
        self.width = 1
    }

    init(raw character: Character, style: TextStyle, width: UInt8) {
        self.character = character
        self.style = style
        self.width = width
    }

    /// A space in the default style.
    public static let blank = Cell()

    /// Whether this is the right half of a wide character.
    public var isContinuation: Bool { width == 0 }

    static func continuation(style: TextStyle) -> Cell {
        Cell(raw: " ", style: style, width: 0)
    }
}
