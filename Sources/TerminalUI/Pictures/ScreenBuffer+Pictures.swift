extension ScreenBuffer {
    /// How a picture is drawn into character cells.
    public enum PictureCells: Sendable, Hashable {
        /// Upper half blocks (`▀`) in two colours: two square pixels a cell.
        case halfBlocks
        /// One character of a brightness ramp per cell, in the default colours: for a
        /// terminal without colour (or `NO_COLOR`). `unicode` picks `░▒▓█` over ASCII.
        case shades(unicode: Bool)

        /// The way that suits a terminal.
        public static func `for`(_ capabilities: TerminalCapabilities) -> PictureCells {
            capabilities.colors == .none ? .shades(unicode: capabilities.unicode) : .halfBlocks
        }
    }

    /// Draws `picture` fitted into `rect` and centred, keeping its aspect ratio (cells are
    /// taken as twice as tall as wide), into the cells, and records a ``PicturePlacement`` a
    /// renderer with a graphics protocol shows in pixels instead.
    ///
    /// - Parameters:
    ///   - background: the colour of transparent pixels and of the cells around the picture.
    ///   - cells: how the cells show it.
    ///   - cache: keeps the resampled picture for the next frame.
    /// - Returns: the cells the picture covers.
    @discardableResult
    public mutating func drawPicture(
        _ picture: Picture,
        in rect: Rect,
        background: Color? = nil,
        cells: PictureCells = .halfBlocks,
        cache: PictureResizeCache? = nil
    ) -> Rect {
        guard !rect.isEmpty else { return rect }
        let fit = picture.fittedSize(width: rect.width, height: rect.height * 2)
        let covered = Rect(
            x: rect.x + (rect.width - fit.width) / 2,
            y: rect.y + (rect.height - (fit.height + 1) / 2) / 2,
            width: fit.width,
            height: (fit.height + 1) / 2
        )
        let backdrop = background?.components ?? (0, 0, 0)
        let resized =
            cache?.resized(picture, width: fit.width, height: fit.height, over: backdrop)
            ?? picture.resized(width: fit.width, height: fit.height, over: backdrop)
        switch cells {
        case .halfBlocks:
            drawHalfBlocks(in: covered, background: background) { column, row in
                guard row < resized.height else { return nil }
                let offset = (row * resized.width + column) * 4
                return .rgb(resized.pixels[offset], resized.pixels[offset + 1], resized.pixels[offset + 2])
            }
        case .shades(let unicode):
            let ramp: [Character] = unicode ? [" ", "░", "▒", "▓", "█"] : Array(" .:-=+*#%@")
            let area = covered.intersection(bounds)
            for y in area.y..<max(area.y, area.maxY) {
                for x in area.x..<area.maxX {
                    let column = x - covered.x
                    let row = (y - covered.y) * 2
                    var luminance = 0
                    var count = 0
                    for pixelRow in row..<min(row + 2, resized.height) {
                        let offset = (pixelRow * resized.width + column) * 4
                        luminance +=
                            (299 * Int(resized.pixels[offset]) + 587 * Int(resized.pixels[offset + 1]) + 114
                                * Int(resized.pixels[offset + 2])) / 1000
                        count += 1
                    }
                    let level = count == 0 ? 0 : luminance / count
                    put(ramp[min(ramp.count - 1, level * ramp.count / 256)], at: Point(x: x, y: y), style: .plain)
                }
            }
        }
        pictures.append(PicturePlacement(rect: covered, picture: picture, background: background))
        return covered
    }
}
