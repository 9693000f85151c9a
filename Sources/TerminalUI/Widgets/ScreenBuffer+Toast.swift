extension ScreenBuffer {
    /// Draws a toast: the message between spaces in `style`, centred on the row, cut to fit.
    public mutating func drawToast(
        _ message: String,
        in row: Rect,
        style: TextStyle = .reverse,
        ellipsis: String = "…"
    ) {
        guard row.width > 2, row.height > 0 else { return }
        let text = " " + TextLayout.truncate(message, toWidth: row.width - 2, ellipsis: ellipsis) + " "
        let width = TextLayout.width(of: text)
        let x = row.x + (row.width - width) / 2
        write(text, at: Point(x: x, y: row.y), style: style, clip: row)
    }
}
