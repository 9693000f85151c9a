/// A grid of cells that a frame is drawn into before the renderer sends it to the terminal.
///
/// Text written into the buffer is made safe for the terminal: control characters (including
/// ESC, so text from the network cannot inject escape sequences) are shown as `?`, tabs as a
/// space, and characters that take no column on their own are dropped. Wide characters take
/// two cells; one that would straddle the right edge of the clip rectangle is replaced by a
/// space. Writing over half of a wide character blanks its other half.
public struct ScreenBuffer: Hashable, Sendable {
    /// The number of columns and rows.
    public private(set) var size: Size
    /// Where the terminal's cursor is shown after the frame is drawn, or `nil` to hide it.
    public var cursor: Point?
    /// The pictures drawn into the frame (``drawPicture(_:in:background:cells:)``), in order;
    /// writing into a picture's cells afterwards marks it covered.
    public internal(set) var pictures: [PicturePlacement] = []

    private var cells: [Cell]

    /// Creates a buffer filled with blank cells.
    public init(size: Size) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.area)
    }

    /// The whole buffer as a rectangle at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: size) }

    /// The cell at a column and row; a blank cell outside the buffer.
    public subscript(x: Int, y: Int) -> Cell {
        guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
        return cells[y * size.width + x]
    }

    /// The cell at a position; a blank cell outside the buffer.
    public subscript(point: Point) -> Cell {
        self[point.x, point.y]
    }

    /// Changes the size and blanks every cell.
    public mutating func resize(to newSize: Size) {
        size = newSize
        cells = Array(repeating: .blank, count: newSize.area)
        cursor = nil
        pictures = []
    }

    /// Blanks every cell with the given style and hides the cursor.
    public mutating func clear(style: TextStyle = .plain) {
        let cell = Cell(" ", style: style)
        for index in cells.indices {
            cells[index] = cell
        }
        cursor = nil
        pictures = []
    }

    /// Fills a rectangle with one character and style.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: TextStyle = .plain) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            var x = area.x
            while x < area.maxX {
                x += put(character, at: Point(x: x, y: y), style: style, clip: area)
            }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the characters.
    public mutating func restyle(_ rect: Rect, _ change: (inout TextStyle) -> Void) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                change(&cells[y * size.width + x].style)
            }
        }
        cover(area)
    }

    /// Puts one character at a position and returns the number of columns it took.
    ///
    /// - Parameters:
    ///   - character: The character; see the type's notes on what is replaced.
    ///   - point: The cell of the character's left half.
    ///   - style: The style of the cells written.
    ///   - clip: Cells outside this rectangle (and outside the buffer) are left alone.
    /// - Returns: 0 for a character that takes no column, 1, or 2 for a wide character
    ///   (also when it was clipped).
    @discardableResult
    public mutating func put(_ character: Character, at point: Point, style: TextStyle, clip: Rect? = nil) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        let width = CharacterWidth.of(character)
        guard width > 0 else { return 0 }
        guard area.contains(point) else { return width }
        if width == 2 {
            guard point.x + 1 < area.maxX else {
                store(Cell(raw: " ", style: style, width: 1), at: point)
                return 2
            }
            storeWide(Cell(raw: character, style: style, width: 2), at: point)
        } else {
            store(Cell(raw: ScreenBuffer.sanitized(character), style: style, width: 1), at: point)
        }
        return width
    }

    /// Writes text on one row from a position and returns the number of columns advanced.
    ///
    /// The text is not wrapped: what falls outside `clip` (or the buffer) is cut. Line breaks
    /// are shown like other control characters; split text with ``TextLayout`` first.
    @discardableResult
    public mutating func write(
        _ text: some StringProtocol,
        at point: Point,
        style: TextStyle = .plain,
        clip: Rect? = nil
    ) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        var x = point.x
        for character in text {
            if x >= area.maxX { break }
            x += put(character, at: Point(x: x, y: point.y), style: style, clip: area)
        }
        return x - point.x
    }

    /// The characters of one row as plain text, wide characters once, trailing spaces kept.
    public func text(row y: Int) -> String {
        guard y >= 0, y < size.height else { return "" }
        var line = ""
        for x in 0..<size.width {
            let cell = cells[y * size.width + x]
            if !cell.isContinuation {
                line.append(cell.character)
            }
        }
        return line
    }

    /// Every row as plain text with trailing spaces removed: what a screen capture shows.
    public var lines: [String] {
        (0..<size.height).map { y in
            var line = text(row: y)
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    // MARK: - Private

    /// Marks the pictures under `rect` covered.
    private mutating func cover(_ rect: Rect) {
        guard !pictures.isEmpty else { return }
        for index in pictures.indices
        where !pictures[index].isCovered && !pictures[index].rect.intersection(rect).isEmpty {
            pictures[index].isCovered = true
        }
    }

    private mutating func store(_ cell: Cell, at point: Point) {
        if !pictures.isEmpty { cover(Rect(x: point.x, y: point.y, width: 1, height: 1)) }
        let index = point.y * size.width + point.x
        detach(index: index, x: point.x)
        cells[index] = cell
    }

    private mutating func storeWide(_ cell: Cell, at point: Point) {
        if !pictures.isEmpty { cover(Rect(x: point.x, y: point.y, width: 2, height: 1)) }
        let index = point.y * size.width + point.x
        detach(index: index, x: point.x)
        detach(index: index + 1, x: point.x + 1)
        cells[index] = cell
        cells[index + 1] = .continuation(style: cell.style)
    }

    /// Blanks the other half of a wide character about to lose one of its halves.
    private mutating func detach(index: Int, x: Int) {
        let old = cells[index]
        if old.isContinuation, x > 0, cells[index - 1].width == 2 {
            cells[index - 1] = Cell(raw: " ", style: cells[index - 1].style, width: 1)
        } else if old.width == 2, x + 1 < size.width {
            cells[index + 1] = Cell(raw: " ", style: cells[index + 1].style, width: 1)
        }
    }

    static func sanitized(_ character: Character) -> Character {
        guard let first = character.unicodeScalars.first else { return " " }
        if first == "\t" { return " " }
        return CharacterWidth.isControl(first) ? "?" : character
    }
}
