extension ScreenBuffer {
    /// Draws a scrolling list, one row per item, scrolling `state` so its selection is shown.
    ///
    /// - Parameters:
    ///   - rect: Where the list goes. When the items do not fit, the last column shows the
    ///     glyphs' marks where more items lie above or below.
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
            if state.offset > 0 {
                put(glyphs.moreAbove, at: Point(x: rect.maxX - 1, y: rect.y), style: style)
            }
            if state.offset + rect.height < state.count {
                put(glyphs.moreBelow, at: Point(x: rect.maxX - 1, y: rect.maxY - 1), style: style)
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
