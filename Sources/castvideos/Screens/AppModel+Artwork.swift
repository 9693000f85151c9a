import CastSenderUI
import TerminalUI

extension AppModel {
    /// Draws artwork fetched and decoded by a widget into `rect` with half blocks, fitted and
    /// centred; without a decoded image (none, still loading, not readable) the title is
    /// shown in its place.
    func drawArtwork(
        _ artwork: Artwork?,
        title: String?,
        into buffer: inout ScreenBuffer,
        in rect: Rect,
        style: TextStyle
    ) {
        guard !rect.isEmpty else { return }
        guard let image = artwork?.image else {
            let text = title ?? "No artwork"
            for (index, line) in TextLayout.wrap(text, width: max(1, rect.width)).prefix(rect.height).enumerated() {
                let x = rect.x + max(0, (rect.width - TextLayout.width(of: line)) / 2)
                let y = rect.y + max(0, (rect.height - 1) / 2) + index
                buffer.write(line, at: Point(x: x, y: y), style: style, clip: rect)
            }
            return
        }
        let fit = Self.fit(image, columns: rect.width, pixelRows: rect.height * 2)
        buffer.drawHalfBlocks(in: rect, background: style.background) { column, row in
            let x = column - fit.x
            let y = row - fit.y
            guard x >= 0, y >= 0, x < fit.width, y < fit.height else { return nil }
            let x0 = x * image.width / fit.width
            let y0 = y * image.height / fit.height
            let x1 = (x + 1) * image.width / fit.width
            let y1 = (y + 1) * image.height / fit.height
            let color = image.averageColor(x0: x0, y0: y0, x1: x1, y1: y1)
            return .rgb(color.red, color.green, color.blue)
        }
    }

    /// The largest size with the image's aspect ratio that fits `columns` × `pixelRows`
    /// square pixels, and where it starts to be centred.
    static func fit(_ image: RGBAImage, columns: Int, pixelRows: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let widthScale = Double(columns) / Double(image.width)
        let heightScale = Double(pixelRows) / Double(image.height)
        let scale = min(widthScale, heightScale)
        let width = max(1, min(columns, Int((Double(image.width) * scale).rounded())))
        let height = max(1, min(pixelRows, Int((Double(image.height) * scale).rounded())))
        return ((columns - width) / 2, (pixelRows - height) / 2, width, height)
    }
}
