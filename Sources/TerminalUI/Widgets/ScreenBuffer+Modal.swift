extension ScreenBuffer {
    /// Clears a rectangle, draws a border with a title around it, and returns the inside: the
    /// frame of any modal content (a dialog, a chooser list).
    @discardableResult
    public mutating func drawModal(
        _ rect: Rect,
        title: String? = nil,
        glyphs: Glyphs = .unicode,
        style: TextStyle = .plain,
        titleStyle: TextStyle? = nil
    ) -> Rect {
        fill(rect, style: style)
        return drawBox(
            rect,
            border: glyphs.box,
            style: style,
            title: title,
            titleStyle: titleStyle ?? style.adding(.bold),
            ellipsis: glyphs.ellipsis
        )
    }
}
