import CastCore
import CastSenderUI
import TerminalUI

extension AppModel {
    /// How pictures fill cells on this terminal: colour half blocks, or shades without colour.
    var pictureCells: ScreenBuffer.PictureCells { .for(terminal.capabilities) }

    /// The URL of the image the context's picker chooses for `item` at `place`.
    func pictureURL(for item: MediaItem, at place: PicturePlace) -> String? {
        guard let metadata = item.mediaInformation.metadata else { return nil }
        return place.image(from: metadata, picker: context.imagePicker)?.url
    }

    /// Draws the picture of `item` for `place` (fetched through the image cache and decoded by
    /// ``PictureLibrary``), fitted and centred in `rect`; while it loads, or when it cannot
    /// be shown, a short text stands in (with the title when there is room).
    func drawPicture(
        of item: MediaItem,
        at place: PicturePlace,
        into buffer: inout ScreenBuffer,
        in rect: Rect,
        style: TextStyle,
        showsTitle: Bool
    ) {
        guard !rect.isEmpty else { return }
        guard let url = pictureURL(for: item, at: place) else {
            drawPlaceholder(showsTitle ? item.title : "no image", into: &buffer, in: rect, style: style)
            return
        }
        switch pictures.phase(for: url) {
        case .loaded(let picture):
            buffer.drawPicture(
                picture,
                in: rect,
                background: style.background,
                cells: pictureCells,
                cache: pictureResizes
            )
        case .loading:
            drawPlaceholder(showsTitle ? "\(item.title)\n…" : "…", into: &buffer, in: rect, style: style)
        case .unavailable(let reason):
            drawPlaceholder(showsTitle ? "\(item.title)\n(\(reason))" : "✕", into: &buffer, in: rect, style: style)
        }
    }

    /// Draws artwork a widget fetched and decoded into `rect`; without a decoded image (none,
    /// still loading, not readable) the title is shown in its place.
    func drawArtwork(
        _ artwork: Artwork?,
        title: String?,
        into buffer: inout ScreenBuffer,
        in rect: Rect,
        style: TextStyle
    ) {
        guard !rect.isEmpty else { return }
        guard let artwork, let image = artwork.image,
            let picture = Picture(
                width: image.width,
                height: image.height,
                pixels: image.pixels,
                identity: PictureLibrary.identity(of: artwork.url)
            )
        else {
            drawPlaceholder(title ?? "No artwork", into: &buffer, in: rect, style: style)
            return
        }
        buffer.drawPicture(picture, in: rect, background: style.background, cells: pictureCells, cache: pictureResizes)
    }

    /// Text centred in `rect`, wrapped; lines separated by newlines stay apart.
    func drawPlaceholder(_ text: String, into buffer: inout ScreenBuffer, in rect: Rect, style: TextStyle) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap {
            TextLayout.wrap(String($0), width: max(1, rect.width))
        }
        let shown = Array(lines.prefix(rect.height))
        let top = rect.y + max(0, (rect.height - shown.count) / 2)
        for (index, line) in shown.enumerated() {
            let x = rect.x + max(0, (rect.width - TextLayout.width(of: line)) / 2)
            buffer.write(line, at: Point(x: x, y: top + index), style: style, clip: rect)
        }
    }
}
