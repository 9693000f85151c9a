import CastCore
import Foundation
import TerminalUI

/// The catalog of videos and the list screen that browses it: loading the catalog (again on
/// `r` after a failure), the selection, and the making of the built-in videos.
@MainActor
final class CatalogScreen {
    /// What the catalog is doing.
    enum State {
        case loading
        case loaded(Catalog)
        case failed(CatalogError)
    }

    unowned let app: AppModel
    /// Where the catalog comes from.
    let source: CatalogSource
    /// Where the built-in catalog's media is served, when the app serves it.
    var builtInMediaBase: String?
    private(set) var state = State.loading
    /// The list's selection and scroll position.
    private(set) var listState = ListState()
    /// What became of the built-in catalog's media (for the settings screen).
    private(set) var builtInMediaStatus: String?

    init(app: AppModel, source: CatalogSource) {
        self.app = app
        self.source = source
    }

    /// The catalog, once loaded.
    var catalog: Catalog? {
        if case .loaded(let catalog) = state { return catalog }
        return nil
    }

    /// Whether the catalog could not be loaded (the list screen then offers to retry).
    var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// The item selected in the list, if any.
    var selectedItem: MediaItem? {
        guard let catalog, !catalog.items.isEmpty else { return nil }
        return catalog.items[min(listState.selection ?? 0, catalog.items.count - 1)]
    }

    /// Loads the catalog in the background.
    func load() {
        state = .loading
        let source = self.source
        let mediaBase = builtInMediaBase
        app.keep(
            Task { [weak self] in
                let result: Result<Catalog, CatalogError>
                do throws(CatalogError) {
                    result = .success(try await source.load(builtInMediaBase: mediaBase))
                } catch {
                    result = .failure(error)
                }
                guard let self else { return }
                switch result {
                case .success(let catalog):
                    self.state = .loaded(catalog)
                    self.listState = ListState(count: catalog.items.count)
                case .failure(let error):
                    self.state = .failed(error)
                }
                self.app.terminal.requestRender()
            }
        )
    }

    /// Makes the built-in catalog's videos with ffmpeg in the background, once, and says so;
    /// without ffmpeg, says what is missing (the videos stay files of headers only).
    func makeBuiltInMedia(_ maker: MediaMaker) {
        guard !maker.isComplete else {
            builtInMediaStatus = "ready (\(maker.library.videos.count) videos and a live stream made by ffmpeg)"
            return
        }
        guard maker.ffmpeg != nil else {
            builtInMediaStatus = "ffmpeg is not installed: the videos hold no pictures"
            app.toast(
                "ffmpeg is not installed: the built-in videos hold no pictures (install ffmpeg to make them)",
                seconds: 8
            )
            return
        }
        builtInMediaStatus = "being made with ffmpeg…"
        app.toast("Making the built-in videos with ffmpeg (once)…", seconds: 6)
        app.keep(
            Task { [weak self] in
                let outcome = await maker.make()
                guard let self else { return }
                switch outcome {
                case .ready, .made:
                    self.builtInMediaStatus =
                        "ready (\(maker.library.videos.count) videos and a live stream made by ffmpeg)"
                    self.app.toast("The built-in videos are ready")
                case .noFFmpeg:
                    self.builtInMediaStatus = "ffmpeg is not installed: the videos hold no pictures"
                case .failed(let path, let reason):
                    self.builtInMediaStatus = "ffmpeg failed on \(path)"
                    self.app.toast("Could not make \(path): \(reason)", seconds: 8)
                }
            }
        )
    }

    // MARK: Keys

    /// The list screen's keys (`r` retries a failed load).
    func handle(_ event: KeyEvent) {
        if hasFailed {
            if event.key == .character("r") { load() }
            return
        }
        guard let catalog else { return }
        switch event.key {
        case .enter, .right:
            guard let index = listState.selection, catalog.items.indices.contains(index) else { return }
            app.push(.detail(catalog.items[index]))
        case .character("u"):
            app.queueScreen.open()
        case .character("s"):
            app.push(.settings)
        case .character("h"):
            app.openCustomChannel()
        default:
            _ = listState.handle(event, visibleRows: 8)
        }
    }

    // MARK: Drawing

    /// The list screen: the catalog loading, its error, or the list with the selected item.
    func draw(into buffer: inout ScreenBuffer, in rect: Rect) {
        switch state {
        case .loading:
            buffer.write("Loading catalog from \(source)…", at: Point(x: 2, y: rect.y + 1), style: styles.dim)
        case .failed(let error):
            drawCatalogError(error, into: &buffer, in: rect)
        case .loaded(let catalog):
            drawList(catalog, into: &buffer, in: rect)
        }
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    private func drawCatalogError(_ error: CatalogError, into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        buffer.write("Could not load the catalog", at: Point(x: area.x, y: area.y + 1), style: styles.error)
        let lines = TextLayout.wrap(error.description, width: max(1, area.width))
        for (index, line) in lines.prefix(max(0, area.height - 5)).enumerated() {
            buffer.write(line, at: Point(x: area.x, y: area.y + 3 + index), clip: area)
        }
        let y = area.y + 4 + min(lines.count, max(0, area.height - 5))
        buffer.write("Source: \(source)", at: Point(x: area.x, y: y), style: styles.dim, clip: area)
        buffer.write("Press r to retry, q to quit.", at: Point(x: area.x, y: y + 2), style: styles.heading, clip: area)
    }

    /// Rows of the media list: a thumbnail, the title, and a line of studio and duration.
    static let listRowHeight = 3

    private func drawList(_ catalog: Catalog, into buffer: inout ScreenBuffer, in rect: Rect) {
        let wide = rect.width >= 90
        let listRect: Rect
        let infoRect: Rect
        if wide {
            let listWidth = rect.width * 11 / 20
            listRect = Rect(x: rect.x, y: rect.y, width: listWidth, height: rect.height)
            infoRect = Rect(
                x: rect.x + listWidth + 1,
                y: rect.y,
                width: rect.width - listWidth - 1,
                height: rect.height
            )
        } else {
            let listHeight = max(Self.listRowHeight, rect.height - 6)
            listRect = Rect(x: rect.x, y: rect.y, width: rect.width, height: listHeight)
            infoRect = Rect(x: rect.x, y: rect.y + listHeight, width: rect.width, height: rect.height - listHeight)
        }
        let items = catalog.items
        let rowHeight = Self.listRowHeight
        let visible = max(1, listRect.height / rowHeight)
        if listState.count != items.count { listState.setCount(items.count) }
        listState.scrollToSelection(visibleRows: visible)
        let scrolls = items.count > visible
        let content = scrolls ? listRect.inset(right: 1) : listRect
        let thumbnailWidth = 10
        for (line, index) in listState.visibleRange(visibleRows: visible).enumerated() {
            let item = items[index]
            let selected = index == listState.selection
            let row = Rect(x: content.x, y: content.y + line * rowHeight, width: content.width, height: rowHeight)
            let style = selected ? styles.selected : styles.body
            buffer.fill(row, style: style)
            let marker = selected ? glyphs.selectionMarker : " "
            buffer.write(marker, at: Point(x: row.x, y: row.y + 1), style: style, clip: row)
            app.drawPicture(
                of: item,
                at: .list,
                into: &buffer,
                in: Rect(x: row.x + 2, y: row.y, width: thumbnailWidth, height: rowHeight),
                style: style.adding(.dim),
                showsTitle: false
            )
            let textX = row.x + 3 + thumbnailWidth
            let textWidth = max(0, row.maxX - textX - 1)
            buffer.write(
                TextLayout.truncate(item.title, toWidth: textWidth, ellipsis: glyphs.ellipsis),
                at: Point(x: textX, y: row.y),
                style: style.adding(.bold),
                clip: row
            )
            var details = "\(item.studio) · \(item.isLive ? "LIVE" : TimeFormat.string(seconds: item.duration))"
            if !item.breaks.isEmpty { details += " · ads" }
            buffer.write(
                TextLayout.truncate(details, toWidth: textWidth, ellipsis: glyphs.ellipsis),
                at: Point(x: textX, y: row.y + 1),
                style: selected ? style : styles.dim,
                clip: row
            )
            buffer.write(
                TextLayout.truncate(item.category, toWidth: textWidth, ellipsis: glyphs.ellipsis),
                at: Point(x: textX, y: row.y + 2),
                style: selected ? style : styles.dim,
                clip: row
            )
        }
        if scrolls {
            if listState.offset > 0 {
                buffer.put(glyphs.moreAbove, at: Point(x: listRect.maxX - 1, y: listRect.y), style: styles.dim)
            }
            if listState.offset + visible < items.count {
                buffer.put(
                    glyphs.moreBelow,
                    at: Point(x: listRect.maxX - 1, y: listRect.y + visible * rowHeight - 1),
                    style: styles.dim
                )
            }
        }
        guard let index = listState.selection, items.indices.contains(index), infoRect.height > 1 else { return }
        let item = items[index]
        let panel = buffer.drawBox(infoRect, border: glyphs.box, style: styles.dim, title: item.category)
        var top = panel.y
        if wide, panel.height >= 16 {
            // The selected video's thumbnail, as large as the panel allows (16:9 in cells
            // twice as tall as wide).
            let width = min(panel.width - 2, 48)
            let height = min(panel.height / 2 - 1, (width * 9 / 16 + 1) / 2)
            app.drawPicture(
                of: item,
                at: .list,
                into: &buffer,
                in: Rect(x: panel.x + 1, y: panel.y, width: width, height: height),
                style: styles.dim,
                showsTitle: true
            )
            top += height + 1
        }
        var lines: [(String, TextStyle)] = [(item.title, styles.heading), (item.subtitle, styles.body)]
        lines.append(
            ("\(item.studio) · \(item.isLive ? "LIVE" : TimeFormat.string(seconds: item.duration))", styles.dim)
        )
        if !item.breaks.isEmpty {
            let clips = item.breaks.reduce(0) { $0 + ($1.breakClipIDs?.count ?? 0) }
            lines.append(("Ad breaks: \(item.breaks.count) (\(clips) clip\(clips == 1 ? "" : "s"))", styles.dim))
        }
        if wide { lines.append(("", styles.body)) }
        for line in TextLayout.wrap(item.description, width: max(1, panel.width - 2)) {
            lines.append((line, styles.body))
        }
        for (offset, line) in lines.prefix(max(0, panel.maxY - top)).enumerated() {
            buffer.write(
                TextLayout.truncate(line.0, toWidth: max(0, panel.width - 2), ellipsis: glyphs.ellipsis),
                at: Point(x: panel.x + 1, y: top + offset),
                style: line.1,
                clip: panel
            )
        }
    }

}
