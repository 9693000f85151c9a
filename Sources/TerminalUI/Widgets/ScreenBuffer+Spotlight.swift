extension ScreenBuffer {
    /// Draws attention to one region, as an introductory overlay does: every cell outside
    /// `rect` is dimmed (its colours dropped, so it also reads as faded without colour), and
    /// the cells inside get `highlight` added.
    public mutating func spotlight(_ rect: Rect, highlight: TextAttributes = [.reverse, .bold]) {
        let area = rect.intersection(bounds)
        let dim: (inout TextStyle) -> Void = { style in
            style = TextStyle(attributes: style.attributes.subtracting([.bold, .reverse]).union(.dim))
        }
        guard !area.isEmpty else {
            restyle(bounds, dim)
            return
        }
        let width = size.width
        restyle(Rect(x: 0, y: 0, width: width, height: area.y), dim)
        restyle(Rect(x: 0, y: area.maxY, width: width, height: size.height - area.maxY), dim)
        restyle(Rect(x: 0, y: area.y, width: area.x, height: area.height), dim)
        restyle(Rect(x: area.maxX, y: area.y, width: width - area.maxX, height: area.height), dim)
        restyle(area) { $0.attributes.formUnion(highlight) }
    }
}
