/// Turns successive frames into the shortest practical stream of ANSI escape sequences.
///
/// The renderer remembers the last frame it produced output for and, for the next one, emits
/// only the cells that changed: a cursor move (CUP) where the cursor is not already in place,
/// an SGR sequence where the style differs from the current one, then the characters. The
/// first frame, a frame of another size, and the frame after ``invalidate()`` are drawn in
/// full after clearing the screen. Colours are reduced to the terminal's capability before
/// comparison, so a colour change the terminal cannot show produces no output.
///
/// The renderer assumes it owns the screen: the cursor is hidden at the start and every
/// frame ends with the cursor hidden or, when ``ScreenBuffer/cursor`` is set, shown there.
public struct FrameRenderer: Sendable {
    /// The colours the output may use.
    public var colors: ColorCapability {
        didSet {
            if colors != oldValue { invalidate() }
        }
    }

    private var previous: ScreenBuffer?
    private var pen: TextStyle?
    private var cursorPosition: Point?
    private var cursorVisible: Bool?

    /// Creates a renderer whose first frame is drawn in full.
    public init(colors: ColorCapability) {
        self.colors = colors
    }

    /// Makes the next frame a full redraw (after the screen was disturbed, or on demand).
    public mutating func invalidate() {
        previous = nil
        pen = nil
        cursorPosition = nil
        cursorVisible = nil
    }

    /// The bytes that turn the screen showing the previous frame into `frame`; empty when
    /// nothing changed.
    public mutating func render(_ frame: ScreenBuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frame.size.area)
        let old: ScreenBuffer
        if let previous, previous.size == frame.size {
            old = previous
        } else {
            bytes.append(contentsOf: Array(ANSI.resetStyle.utf8))
            bytes.append(contentsOf: Array(ANSI.clearScreen.utf8))
            pen = .plain
            cursorPosition = nil
            old = ScreenBuffer(size: frame.size)
        }
        let width = frame.size.width
        for y in 0..<frame.size.height {
            var x = 0
            while x < width {
                let cell = frame[x, y]
                if same(cell, old[x, y]) {
                    x += 1
                    continue
                }
                if cell.isContinuation {
                    if x > 0, frame[x - 1, y].width == 2 {
                        emit(frame[x - 1, y], at: Point(x: x - 1, y: y), in: frame, into: &bytes)
                    }
                    x += 1
                    continue
                }
                emit(cell, at: Point(x: x, y: y), in: frame, into: &bytes)
                x += max(1, Int(cell.width))
            }
        }
        finishCursor(frame.cursor, size: frame.size, into: &bytes)
        previous = frame
        return bytes
    }

    // MARK: - Private

    private func effective(_ style: TextStyle) -> TextStyle {
        guard colors != .trueColor else { return style }
        return TextStyle(
            foreground: style.foreground?.downgraded(to: colors),
            background: style.background?.downgraded(to: colors),
            attributes: style.attributes
        )
    }

    private func same(_ a: Cell, _ b: Cell) -> Bool {
        a.character == b.character && a.width == b.width
            && (a.style == b.style || effective(a.style) == effective(b.style))
    }

    /// The longest run of unchanged cells rewritten instead of moving the cursor over them;
    /// a cursor move costs at least six bytes.
    static let maximumBridge = 4

    private mutating func emit(_ cell: Cell, at point: Point, in frame: ScreenBuffer, into bytes: inout [UInt8]) {
        if let cursor = cursorPosition, cursor != point {
            if cursor.y == point.y, point.x > cursor.x, point.x - cursor.x <= FrameRenderer.maximumBridge,
                canBridge(frame, row: point.y, from: cursor.x, to: point.x)
            {
                for x in cursor.x..<point.x {
                    bytes.append(contentsOf: frame[x, point.y].character.utf8)
                }
            } else {
                ANSI.moveCursor(to: point, into: &bytes)
            }
        } else if cursorPosition == nil {
            ANSI.moveCursor(to: point, into: &bytes)
        }
        let style = effective(cell.style)
        if pen != style {
            ANSI.setStyle(style, into: &bytes)
            pen = style
        }
        bytes.append(contentsOf: cell.character.utf8)
        let next = point.x + max(1, Int(cell.width))
        cursorPosition = next < frame.size.width ? Point(x: next, y: point.y) : nil
    }

    /// Whether the cells between two columns can be written again as they are: one column
    /// wide each and in the current pen.
    private func canBridge(_ frame: ScreenBuffer, row: Int, from start: Int, to end: Int) -> Bool {
        for x in start..<end {
            let cell = frame[x, row]
            guard cell.width == 1, effective(cell.style) == pen else { return false }
        }
        return true
    }

    private mutating func finishCursor(_ wanted: Point?, size: Size, into bytes: inout [UInt8]) {
        if let wanted, wanted.x >= 0, wanted.y >= 0, wanted.x < size.width, wanted.y < size.height {
            if cursorPosition != wanted {
                ANSI.moveCursor(to: wanted, into: &bytes)
                cursorPosition = wanted
            }
            if cursorVisible != true {
                bytes.append(contentsOf: Array(ANSI.showCursor.utf8))
                cursorVisible = true
            }
        } else if cursorVisible != false {
            bytes.append(contentsOf: Array(ANSI.hideCursor.utf8))
            cursorVisible = false
        }
    }
}
