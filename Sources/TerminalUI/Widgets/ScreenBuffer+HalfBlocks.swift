extension ScreenBuffer {
    /// Draws a picture of `rect.width` × `2 × rect.height` pixels with upper half blocks: each
    /// cell shows two pixels stacked, the top one as the foreground of `▀` and the bottom one
    /// as its background. Pixels are square on terminals whose cells are twice as tall as
    /// they are wide.
    ///
    /// - Parameters:
    ///   - rect: the cells to draw into (clipped to the buffer).
    ///   - pixel: the colour of the pixel at a column and pixel row of `rect` (row 0 is the
    ///     top half of the first line), or `nil` to leave that half in `background`.
    ///   - background: the colour of pixels `pixel` leaves out.
    public mutating func drawHalfBlocks(
        in rect: Rect,
        background: Color? = nil,
        pixel: (_ column: Int, _ row: Int) -> Color?
    ) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let column = x - rect.x
                let row = (y - rect.y) * 2
                let top = pixel(column, row) ?? background
                let bottom = pixel(column, row + 1) ?? background
                let style = TextStyle(foreground: top, background: bottom)
                _ = put(top == nil && bottom == nil ? " " : "▀", at: Point(x: x, y: y), style: style, clip: area)
            }
        }
    }
}
