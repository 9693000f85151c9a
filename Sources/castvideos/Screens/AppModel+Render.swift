import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

extension AppModel {
    /// Draws the whole frame: header with the Cast button, the screen, toasts, the docked mini
    /// controller, the key footer, and any modal on top.
    func render(into buffer: inout ScreenBuffer) {
        let bounds = buffer.bounds
        guard bounds.width >= 20, bounds.height >= 8 else {
            buffer.write("Terminal too small", at: .zero)
            return
        }
        let now = self.now
        drawHeader(into: &buffer, row: bounds.row(0))
        let miniHeight = showsMiniController ? 2 : 0
        let footerRow = bounds.row(bounds.height - 1)
        let contentBottom = bounds.height - 1 - miniHeight - 1
        let content = Rect(x: 0, y: 2, width: bounds.width, height: max(0, contentBottom - 2))
        drawScreen(into: &buffer, in: content, now: now)
        let flash = flashMessage.flatMap { $0.until > now ? $0.text : nil }
        if let message = flash ?? toasts.message(at: now) {
            let row = bounds.row(contentBottom)
            let text = " " + message.replacingOccurrences(of: "\n", with: " — ") + " "
            let width = min(TextLayout.width(of: text), row.width)
            let x = (row.width - width) / 2
            buffer.write(
                TextLayout.truncate(text, toWidth: width, ellipsis: glyphs.ellipsis),
                at: Point(x: x, y: row.y),
                style: styles.toast
            )
        }
        if miniHeight > 0 {
            drawMiniController(into: &buffer, in: Rect(x: 0, y: contentBottom + 1, width: bounds.width, height: 2))
        }
        buffer.drawStatusBar(in: footerRow, leading: footerText, trailing: "? help  q quit", style: styles.footer)
        drawModal(into: &buffer, in: bounds)
    }

    // MARK: Header

    /// The Cast button as drawn in the header of every screen, from the widget's state.
    var castButtonLabel: String {
        switch castButton.state.buttonState {
        case .connected: "[▣ Casting on \(session?.device.friendlyName ?? "device")]"
        case .connecting: "[◌ Connecting…]"
        case .available: "[▭ Cast]"
        default: "[▭ Cast: no devices]"
        }
    }

    private func drawHeader(into buffer: inout ScreenBuffer, row: Rect) {
        var title = " CastVideos"
        switch topScreen {
        case .list: break
        case .detail(let item): title += " › \(item.title)"
        case .expandedController: title += " › Now casting"
        case .queue: title += " › Queue"
        case .settings: title += " › Settings"
        }
        buffer.fill(row, style: styles.header)
        let button = castButtonLabel
        let creds = credentialsEnabled ? "Creds: on " : "Creds: off "
        let buttonWidth = TextLayout.width(of: button)
        let credsWidth = TextLayout.width(of: creds)
        let buttonX = max(0, row.width - buttonWidth - 1)
        let credsX = max(0, buttonX - credsWidth - 1)
        let titleRoom = max(0, credsX - 1)
        buffer.write(
            TextLayout.truncate(title, toWidth: titleRoom, ellipsis: glyphs.ellipsis),
            at: row.origin,
            style: styles.header
        )
        buffer.write(creds, at: Point(x: credsX, y: row.y), style: styles.header)
        buffer.write(button, at: Point(x: buttonX, y: row.y), style: styles.castButton)
    }

    private var footerText: String {
        if case .failed = catalogState, topScreen == .list { return "r retry  c cast" }
        var keys: String
        switch topScreen {
        case .list: keys = "↑↓ select  ⏎ open  c cast  u queue  s settings  k creds"
        case .detail:
            keys =
                isConnected ? "⏎ play on device  c cast  esc back" : "⏎ play/pause  ←→ seek  x stop  c cast  esc back"
        case .expandedController:
            keys = "space ⏯  ←→ ±30s  x stop  r speed  t tracks  l repeat  n/b next/prev  esc back"
        case .queue: keys = "⏎ jump  d remove  [ ] move  space play/pause  esc back"
        case .settings: keys = "⏎ edit  esc back"
        }
        if showsMiniController { keys = "space play/pause  e expand  " + keys }
        return keys + "  +/- m volume"
    }

    // MARK: Screens

    private func drawScreen(into buffer: inout ScreenBuffer, in rect: Rect, now: Instant) {
        guard !rect.isEmpty else { return }
        switch topScreen {
        case .list:
            switch catalogState {
            case .loading:
                buffer.write(
                    "Loading catalog from \(catalogSource)…",
                    at: Point(x: 2, y: rect.y + 1),
                    style: styles.dim
                )
            case .failed(let error):
                drawCatalogError(error, into: &buffer, in: rect)
            case .loaded(let catalog):
                drawList(catalog, into: &buffer, in: rect)
            }
        case .detail(let item):
            drawDetail(item, into: &buffer, in: rect, now: now)
        case .expandedController:
            drawExpandedController(into: &buffer, in: rect)
        case .queue:
            drawQueue(into: &buffer, in: rect)
        case .settings:
            drawSettings(into: &buffer, in: rect)
        }
    }

    private func drawCatalogError(_ error: CatalogError, into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        buffer.write("Could not load the catalog", at: Point(x: area.x, y: area.y + 1), style: styles.error)
        let lines = TextLayout.wrap(error.description, width: max(1, area.width))
        for (index, line) in lines.prefix(max(0, area.height - 5)).enumerated() {
            buffer.write(line, at: Point(x: area.x, y: area.y + 3 + index), clip: area)
        }
        let y = area.y + 4 + min(lines.count, max(0, area.height - 5))
        buffer.write("Source: \(catalogSource)", at: Point(x: area.x, y: y), style: styles.dim, clip: area)
        buffer.write("Press r to retry, q to quit.", at: Point(x: area.x, y: y + 2), style: styles.heading, clip: area)
    }

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
            let listHeight = max(3, rect.height - 6)
            listRect = Rect(x: rect.x, y: rect.y, width: rect.width, height: listHeight)
            infoRect = Rect(x: rect.x, y: rect.y + listHeight, width: rect.width, height: rect.height - listHeight)
        }
        let items = catalog.items
        buffer.drawList(in: listRect, state: &listState, selectedStyle: styles.selected, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let item = items[index]
            let time = TimeFormat.string(seconds: item.duration)
            let marker = selected ? glyphs.selectionMarker : " "
            let left = "\(marker) \(item.title)"
            let right = "\(item.studio)  \(time) "
            let style = selected ? styles.selected : styles.body
            let rightWidth = TextLayout.width(of: right)
            buffer.write(
                TextLayout.truncate(left, toWidth: max(0, row.width - rightWidth - 1), ellipsis: glyphs.ellipsis),
                at: row.origin,
                style: style,
                clip: row
            )
            buffer.write(
                right,
                at: Point(x: row.maxX - rightWidth, y: row.y),
                style: selected ? style : styles.dim,
                clip: row
            )
        }
        guard let index = listState.selection, items.indices.contains(index), infoRect.height > 1 else { return }
        let item = items[index]
        let panel = buffer.drawBox(infoRect, border: glyphs.box, style: styles.dim, title: item.category)
        var lines: [(String, TextStyle)] = [(item.title, styles.heading), (item.subtitle, styles.body)]
        lines.append(("\(item.studio) · \(TimeFormat.string(seconds: item.duration))", styles.dim))
        if wide { lines.append(("", styles.body)) }
        for line in TextLayout.wrap(item.description, width: max(1, panel.width - 2)) {
            lines.append((line, styles.body))
        }
        if wide, let thumbnail = item.thumbnailURL {
            lines.append(("", styles.body))
            lines.append(("Image: \(thumbnail)", styles.dim))
        }
        for (offset, line) in lines.prefix(panel.height).enumerated() {
            buffer.write(
                TextLayout.truncate(line.0, toWidth: max(0, panel.width - 2), ellipsis: glyphs.ellipsis),
                at: Point(x: panel.x + 1, y: panel.y + offset),
                style: line.1,
                clip: panel
            )
        }
    }

    private func drawDetail(_ item: MediaItem, into buffer: inout ScreenBuffer, in rect: Rect, now: Instant) {
        let area = rect.inset(left: 2, right: 2)
        var y = area.y
        buffer.write(item.title, at: Point(x: area.x, y: y), style: styles.heading, clip: area)
        y += 1
        buffer.write(item.subtitle, at: Point(x: area.x, y: y), clip: area)
        y += 1
        let tracks = item.tracks.isEmpty ? "" : " · captions: \(item.tracks.compactMap(\.name).joined(separator: ", "))"
        buffer.write(
            "\(item.studio) · \(item.category) · \(TimeFormat.string(seconds: item.duration))\(tracks)",
            at: Point(x: area.x, y: y),
            style: styles.dim,
            clip: area
        )
        y += 2
        let playerHeight = 5
        let descriptionRoom = max(0, area.maxY - y - playerHeight - 1)
        for line in TextLayout.wrap(item.description, width: max(1, area.width), maxLines: max(1, descriptionRoom)) {
            guard y < area.maxY - playerHeight else { break }
            buffer.write(line, at: Point(x: area.x, y: y), clip: area)
            y += 1
        }
        let playerRect = Rect(
            x: area.x,
            y: max(y + 1, area.maxY - playerHeight),
            width: area.width,
            height: playerHeight
        )
        guard playerRect.maxY <= area.maxY else { return }
        let inner = buffer.drawBox(playerRect, border: glyphs.box, style: styles.dim, title: "Local player")
        let remote = playbackMode == .remote && isConnected
        if remote {
            let device = session?.device.friendlyName ?? "the Cast device"
            let loaded = mediaController.state.isMediaLoaded
            buffer.write(
                loaded ? "▣ Playing on \(device)" : "▣ Connected to \(device)",
                at: Point(x: inner.x + 1, y: inner.y),
                style: styles.heading,
                clip: inner
            )
            buffer.write(
                "Press ⏎ to send this video to the device.",
                at: Point(x: inner.x + 1, y: inner.y + 1),
                style: styles.dim,
                clip: inner
            )
            return
        }
        let active = localItem == item
        let state = active ? localPlayer.state : .stopped
        let position = active ? localPlayer.position(at: now) : 0
        let icon: String =
            switch state {
            case .playing: "▶"
            case .paused: "⏸"
            case .ended: "■"
            case .stopped: "■"
            }
        buffer.write(
            "\(icon) Local: \(state)",
            at: Point(x: inner.x + 1, y: inner.y),
            style: iconStyle(expanded: false),
            clip: inner
        )
        let volume = localMuted ? "muted" : "\(localVolume)%"
        buffer.write(
            "volume \(volume)",
            at: Point(x: inner.maxX - TextLayout.width(of: "volume \(volume)") - 1, y: inner.y),
            style: styles.dim,
            clip: inner
        )
        let bar = SeekBar(position: position, duration: item.duration, style: glyphs.bar)
        buffer.write(bar.render(width: max(0, inner.width - 2)), at: Point(x: inner.x + 1, y: inner.y + 1), clip: inner)
        let hint = isConnected ? "⏎ choose Play Now, Play Next or Add to Queue" : "⏎ play/pause  ←→ seek 10s  x stop"
        buffer.write(hint, at: Point(x: inner.x + 1, y: inner.y + 2), style: styles.dim, clip: inner)
    }

    func iconStyle(expanded: Bool) -> TextStyle {
        let tint = expanded ? (styles.expandedIconTint ?? styles.iconTint) : styles.iconTint
        return TextStyle(foreground: tint, attributes: .bold)
    }

    private func drawSettings(into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        buffer.write("Settings", at: area.origin, style: styles.heading)
        buffer.write(
            "Saved in \(settingsStore.url.path)",
            at: Point(x: area.x, y: area.y + 1),
            style: styles.dim,
            clip: area
        )
        let fields = AppSettings.Field.allCases
        let listRect = Rect(
            x: area.x,
            y: area.y + 3,
            width: area.width,
            height: max(0, min(fields.count, area.height - 3))
        )
        let settings = self.settings
        buffer.drawList(in: listRect, state: &settingsState, selectedStyle: styles.selected, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let field = fields[index]
            let value = settings.text(field)
            let text =
                TextLayout.pad(field.title, toWidth: 24) + TextLayout.pad(value.isEmpty ? "(all)" : value, toWidth: 16)
                + "  " + field.note
            buffer.write(
                TextLayout.truncate(
                    (selected ? glyphs.selectionMarker : " ") + " " + text,
                    toWidth: row.width,
                    ellipsis: glyphs.ellipsis
                ),
                at: row.origin,
                style: selected ? styles.selected : styles.body,
                clip: row
            )
        }
    }
}
