extension ScreenBuffer {
    /// Draws a one-row status bar: the row filled with `style`, `leading` text on the left,
    /// `trailing` text on the right and `center` text in the middle when it fits between them.
    ///
    /// The trailing text is kept whole when it can be; the leading text is cut to leave one
    /// column between them.
    public mutating func drawStatusBar(
        in row: Rect,
        leading: String,
        center: String = "",
        trailing: String = "",
        style: TextStyle = .reverse,
        ellipsis: String = "…"
    ) {
        let bar = Rect(x: row.x, y: row.y, width: row.width, height: min(1, row.height))
        guard !bar.isEmpty else { return }
        fill(bar, style: style)
        let content = bar.inset(left: 1, right: 1)
        let right = TextLayout.truncate(trailing, toWidth: content.width, ellipsis: ellipsis)
        let rightWidth = TextLayout.width(of: right)
        let leftRoom = content.width - rightWidth - (rightWidth > 0 ? 1 : 0)
        let left = TextLayout.truncate(leading, toWidth: max(0, leftRoom), ellipsis: ellipsis)
        let leftWidth = TextLayout.width(of: left)
        write(left, at: content.origin, style: style, clip: content)
        write(right, at: Point(x: content.maxX - rightWidth, y: content.y), style: style, clip: content)
        let centerWidth = TextLayout.width(of: center)
        if centerWidth > 0 {
            let start = content.x + (content.width - centerWidth) / 2
            let gapStart = content.x + leftWidth + (leftWidth > 0 ? 1 : 0)
            let gapEnd = content.maxX - rightWidth - (rightWidth > 0 ? 1 : 0)
            if start >= gapStart, start + centerWidth <= gapEnd {
                write(center, at: Point(x: start, y: content.y), style: style, clip: content)
            }
        }
    }
}
