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
///
/// With a ``graphics`` protocol, each picture of the frame that nothing covers
/// (``ScreenBuffer/pictures``) is shown in pixels: its cells are blanked in its background
/// and the picture, scaled to the cells' pixels, is sent once, when it first shows or moves
/// (and, for sixel and iTerm2, again when text was written over it). A picture that goes
/// away is deleted (kitty) or has its cells written again (sixel, iTerm2). Without a
/// protocol, or for a covered picture, the cells (half blocks) are drawn as they are.
public struct FrameRenderer: Sendable {
    /// The colours the output may use.
    public var colors: ColorCapability {
        didSet {
            if colors != oldValue { invalidate() }
        }
    }

    /// The protocol pictures are shown with, or `nil` for character cells only.
    public var graphics: GraphicsProtocol? {
        didSet {
            if graphics != oldValue { invalidate() }
        }
    }

    /// The size of a cell in pixels, used to scale pictures for ``graphics``.
    public var cellPixelSize = Size(width: 10, height: 20)

    /// A picture on the screen, shown with the protocol.
    private struct Shown: Hashable, Sendable {
        var rect: Rect
        var identity: UInt64
        var width: Int
        var height: Int
    }

    private var previous: ScreenBuffer?
    private var pen: TextStyle?
    private var cursorPosition: Point?
    private var cursorVisible: Bool?
    /// The pictures shown, with their kitty image numbers.
    private var shown: [Shown: UInt32] = [:]
    private var nextImageID: UInt32 = 1
    /// Images a full redraw must delete (kitty keeps them over a cleared screen).
    private var deletesAllImages = false

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
        if !shown.isEmpty { deletesAllImages = true }
        shown = [:]
    }

    /// The bytes that remove what the renderer put beyond the cells (kitty images), for the
    /// end of the program.
    public mutating func finish() -> [UInt8] {
        defer { shown = [:] }
        return graphics == .kitty && !shown.isEmpty ? PictureEncoding.kittyDeleteAll : []
    }

    /// The bytes that turn the screen showing the previous frame into `frame`; empty when
    /// nothing changed.
    public mutating func render(_ frame: ScreenBuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frame.size.area)
        // The pictures shown in pixels this frame, and the frame as the cells then look.
        let pictures = graphics == nil ? [] : pixelPictures(in: frame)
        var display = frame
        for placement in pictures {
            display.fill(placement.rect, style: TextStyle(background: placement.background))
        }
        var old: ScreenBuffer
        if let previous, previous.size == frame.size {
            old = previous
        } else {
            bytes.append(contentsOf: Array(ANSI.resetStyle.utf8))
            bytes.append(contentsOf: Array(ANSI.clearScreen.utf8))
            pen = .plain
            cursorPosition = nil
            old = ScreenBuffer(size: frame.size)
            if !shown.isEmpty { deletesAllImages = true }
            shown = [:]
        }
        if deletesAllImages {
            if graphics == .kitty || graphics == nil { bytes += PictureEncoding.kittyDeleteAll }
            deletesAllImages = false
        }
        // Pictures that went: kitty deletes them; sixel and iTerm2 pixels stay until their
        // cells are written again, so those cells count as changed.
        let keys = Dictionary(pictures.map { (Self.key($0), $0) }, uniquingKeysWith: { first, _ in first })
        for (gone, id) in shown where keys[gone] == nil {
            if graphics == .kitty {
                bytes += PictureEncoding.kittyDelete(id: id)
            } else {
                // A character no frame draws (private use): every cell differs from it.
                old.fill(gone.rect.intersection(old.bounds), with: "\u{E000}", style: .plain)
            }
            shown[gone] = nil
        }
        var written = [Bool](repeating: false, count: graphics == nil ? 0 : frame.size.area)
        let width = frame.size.width
        for y in 0..<frame.size.height {
            var x = 0
            while x < width {
                let cell = display[x, y]
                if same(cell, old[x, y]) {
                    x += 1
                    continue
                }
                if cell.isContinuation {
                    if x > 0, display[x - 1, y].width == 2 {
                        emit(display[x - 1, y], at: Point(x: x - 1, y: y), in: display, into: &bytes)
                    }
                    x += 1
                    continue
                }
                emit(cell, at: Point(x: x, y: y), in: display, into: &bytes)
                if !written.isEmpty { written[y * width + x] = true }
                x += max(1, Int(cell.width))
            }
        }
        for placement in pictures {
            let key = Self.key(placement)
            var overwritten = false
            if graphics != .kitty {
                for y in placement.rect.y..<placement.rect.maxY where !overwritten {
                    for x in placement.rect.x..<placement.rect.maxX where written[y * width + x] {
                        overwritten = true
                        break
                    }
                }
            }
            guard shown[key] == nil || overwritten else { continue }
            let id = shown[key] ?? nextID()
            shown[key] = id
            ANSI.moveCursor(to: placement.rect.origin, into: &bytes)
            bytes += encode(placement, id: id)
            // Where the terminal leaves the cursor after a picture differs between protocols.
            cursorPosition = nil
        }
        finishCursor(frame.cursor, size: frame.size, into: &bytes)
        previous = display
        return bytes
    }

    /// The pictures of `frame` shown in pixels: those nothing covers, inside the screen, and
    /// for sixel not on the last row (the terminal would scroll past a picture ending there).
    private func pixelPictures(in frame: ScreenBuffer) -> [PicturePlacement] {
        frame.pictures.filter { placement in
            !placement.isCovered && !placement.rect.isEmpty
                && placement.rect.intersection(frame.bounds) == placement.rect
                && (graphics != .sixel || placement.rect.maxY < frame.size.height)
        }
    }

    private static func key(_ placement: PicturePlacement) -> Shown {
        Shown(
            rect: placement.rect,
            identity: placement.picture.identity,
            width: placement.picture.width,
            height: placement.picture.height
        )
    }

    private mutating func nextID() -> UInt32 {
        defer { nextImageID = nextImageID == UInt32.max ? 1 : nextImageID + 1 }
        return nextImageID
    }

    /// The picture scaled to the pixels of its cells (keeping its aspect ratio) in the
    /// protocol's sequence.
    private func encode(_ placement: PicturePlacement, id: UInt32) -> [UInt8] {
        let box = (
            placement.rect.width * max(1, cellPixelSize.width), placement.rect.height * max(1, cellPixelSize.height)
        )
        let fit = placement.picture.fittedSize(width: box.0, height: box.1)
        let scaled = placement.picture.resized(
            width: fit.width,
            height: fit.height,
            over: placement.background?.components ?? (0, 0, 0)
        )
        switch graphics {
        case .some(.kitty): return PictureEncoding.kitty(scaled, id: id)
        case .some(.iTerm2): return PictureEncoding.iTerm2(scaled)
        case .some(.sixel): return PictureEncoding.sixel(scaled)
        default: return []
        }
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
