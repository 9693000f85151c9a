/// The selection and scroll position of a list: a value type the screen keeps and the
/// keyboard changes.
///
/// The selection is `nil` only while the list is empty. The scroll offset (the first row
/// shown) is adjusted by ``scrollToSelection(visibleRows:)``, which drawing calls, so the
/// selected row is always on screen.
public struct ListState: Hashable, Sendable {
    /// The number of items.
    public private(set) var count: Int
    /// The index of the selected item, or `nil` when the list is empty.
    public private(set) var selection: Int?
    /// The index of the first item shown.
    public private(set) var offset: Int = 0

    /// Creates a state for `count` items with the first one selected.
    public init(count: Int = 0, selection: Int = 0) {
        self.count = max(0, count)
        self.selection = count > 0 ? min(max(0, selection), count - 1) : nil
    }

    /// Changes the number of items, keeping the selection in range.
    public mutating func setCount(_ newCount: Int) {
        count = max(0, newCount)
        if count == 0 {
            selection = nil
            offset = 0
        } else {
            selection = min(selection ?? 0, count - 1)
            offset = min(offset, count - 1)
        }
    }

    /// Selects an item (clamped to the list).
    public mutating func select(_ index: Int) {
        guard count > 0 else { return }
        selection = min(max(0, index), count - 1)
    }

    /// Moves the selection by `delta` items, stopping at either end.
    public mutating func moveSelection(by delta: Int) {
        guard let selection else { return }
        select(selection + delta)
    }

    /// Applies the navigation keys: up and down, Page Up and Page Down (by `visibleRows - 1`),
    /// Home and End. Returns whether the key was one of them.
    public mutating func handle(_ event: KeyEvent, visibleRows: Int) -> Bool {
        let page = max(1, visibleRows - 1)
        switch event.key {
        case .up: moveSelection(by: -1)
        case .down: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -page)
        case .pageDown: moveSelection(by: page)
        case .home: select(0)
        case .end: select(count - 1)
        default: return false
        }
        scrollToSelection(visibleRows: visibleRows)
        return true
    }

    /// Scrolls the least needed to show the selected item in a window of `visibleRows` rows,
    /// and so that the window is not left half empty at the end of the list.
    public mutating func scrollToSelection(visibleRows: Int) {
        guard visibleRows > 0, count > 0 else {
            offset = 0
            return
        }
        if let selection {
            if selection < offset {
                offset = selection
            } else if selection >= offset + visibleRows {
                offset = selection - visibleRows + 1
            }
        }
        offset = max(0, min(offset, count - visibleRows))
    }

    /// The indices of the items shown in a window of `visibleRows` rows.
    public func visibleRange(visibleRows: Int) -> Range<Int> {
        let start = min(offset, count)
        return start..<min(count, start + max(0, visibleRows))
    }
}

extension ScreenBuffer {
    /// Draws a scrolling list, one row per item, scrolling `state` so its selection is shown.
    ///
    /// - Parameters:
    ///   - rect: Where the list goes. When the items do not fit, the last column shows `↑`/`↓`
    ///     (`^`/`v` with ASCII glyphs) where more items lie above or below.
    ///   - state: The selection and scroll position; its scroll offset is updated.
    ///   - glyphs: The selection marker and scroll marks.
    ///   - drawRow: Draws item `index` in the given one-row rectangle; `selected` tells whether
    ///     it is the selected item. The row has already been filled with `style`, or
    ///     `selectedStyle` for the selected item.
    public mutating func drawList(
        in rect: Rect,
        state: inout ListState,
        style: TextStyle = .plain,
        selectedStyle: TextStyle = .reverse,
        glyphs: Glyphs = .unicode,
        drawRow: (inout ScreenBuffer, _ index: Int, _ row: Rect, _ selected: Bool) -> Void
    ) {
        guard !rect.isEmpty else { return }
        state.scrollToSelection(visibleRows: rect.height)
        let scrolls = state.count > rect.height
        let content = scrolls ? rect.inset(right: 1) : rect
        for (line, index) in state.visibleRange(visibleRows: rect.height).enumerated() {
            let row = content.row(line)
            let selected = index == state.selection
            fill(row, style: selected ? selectedStyle : style)
            drawRow(&self, index, row, selected)
        }
        if scrolls {
            let up: Character = glyphs.box == .ascii ? "^" : "↑"
            let down: Character = glyphs.box == .ascii ? "v" : "↓"
            if state.offset > 0 {
                put(up, at: Point(x: rect.maxX - 1, y: rect.y), style: style)
            }
            if state.offset + rect.height < state.count {
                put(down, at: Point(x: rect.maxX - 1, y: rect.maxY - 1), style: style)
            }
        }
    }

    /// Draws a scrolling list of text items: each row is the selection marker (or spaces) and
    /// the item, cut with the glyphs' ellipsis.
    public mutating func drawList(
        _ items: [String],
        in rect: Rect,
        state: inout ListState,
        style: TextStyle = .plain,
        selectedStyle: TextStyle = .reverse,
        glyphs: Glyphs = .unicode
    ) {
        if state.count != items.count {
            state.setCount(items.count)
        }
        drawList(in: rect, state: &state, style: style, selectedStyle: selectedStyle, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let marker = selected ? glyphs.selectionMarker : String(repeating: " ", count: glyphs.selectionMarker.count)
            let text = TextLayout.truncate(
                marker + " " + items[index],
                toWidth: row.width,
                ellipsis: glyphs.ellipsis
            )
            buffer.write(text, at: row.origin, style: selected ? selectedStyle : style, clip: row)
        }
    }
}
