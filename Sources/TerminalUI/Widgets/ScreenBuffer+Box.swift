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
