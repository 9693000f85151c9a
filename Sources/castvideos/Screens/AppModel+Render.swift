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
        case .customChannel: title += " › Custom channel"
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
        var keys: [(key: String, label: String)]
        switch topScreen {
        case .list:
            keys = [
                ("↑↓", "select"), ("⏎", "open"), ("c", "cast"), ("u", "queue"), ("h", "channel"), ("s", "settings"),
                ("k", "creds"),
            ]
        case .detail:
            keys =
                isConnected
                ? [("⏎", "play on device"), ("c", "cast"), ("esc", "back")]
                : [("⏎", "play/pause"), ("←→", "seek"), ("x", "stop"), ("c", "cast"), ("esc", "back")]
        case .expandedController:
            keys = [
                ("space", "⏯"), ("←→", "±30s"), ("x", "stop"), ("r", "speed"), ("t", "tracks"), ("l", "repeat"),
                ("n/b", "next/prev"),
            ]
            if container.expandedController.state.adBreak != nil { keys.append(("s", "skip ad")) }
            keys.append(("esc", "back"))
        case .queue: keys = [("⏎", "jump"), ("d", "remove"), ("[ ]", "move"), ("space", "play/pause"), ("esc", "back")]
        case .settings: keys = [("⏎", "edit"), ("esc", "back")]
        case .customChannel: return "type a message  ⏎ send  esc back"
        }
        // The mini controller's keys come first; a key the screen has already is not repeated.
        if showsMiniController {
            let mini = [("space", "play/pause"), ("e", "expand")].filter { key in !keys.contains { $0.key == key.0 } }
            keys = mini.map { (key: $0.0, label: $0.1) } + keys
        }
        return keys.map { "\($0.key) \($0.label)" }.joined(separator: "  ") + "  +/- m volume"
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
        case .customChannel:
            drawCustomChannel(into: &buffer, in: rect)
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
            drawPicture(
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
            drawPicture(
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

    private func drawDetail(_ item: MediaItem, into buffer: inout ScreenBuffer, in rect: Rect, now: Instant) {
        var area = rect.inset(left: 2, right: 2)
        let playerHeight = 5
        // The poster on the left, portrait, above the player.
        let posterWidth = area.width >= 60 ? min(26, area.width / 3) : 0
        let posterHeight = max(0, area.height - playerHeight - 1)
        if posterWidth > 0, posterHeight >= 6 {
            drawPicture(
                of: item,
                at: .detail,
                into: &buffer,
                in: Rect(x: area.x, y: area.y, width: posterWidth, height: posterHeight),
                style: styles.dim,
                showsTitle: true
            )
            area = Rect(
                x: area.x + posterWidth + 2,
                y: area.y,
                width: area.width - posterWidth - 2,
                height: area.height
            )
        }
        var y = area.y
        buffer.write(item.title, at: Point(x: area.x, y: y), style: styles.heading, clip: area)
        y += 1
        buffer.write(item.subtitle, at: Point(x: area.x, y: y), clip: area)
        y += 1
        let tracks = item.tracks.isEmpty ? "" : " · captions: \(item.tracks.compactMap(\.name).joined(separator: ", "))"
        let length = item.isLive ? "LIVE" : TimeFormat.string(seconds: item.duration)
        buffer.write(
            "\(item.studio) · \(item.category) · \(length)\(tracks)",
            at: Point(x: area.x, y: y),
            style: styles.dim,
            clip: area
        )
        if !item.breaks.isEmpty {
            y += 1
            let positions = item.breaks.map {
                $0.position == 0 ? "before the video" : "at \(TimeFormat.string(seconds: $0.position))"
            }
            buffer.write(
                "Ad breaks: " + positions.joined(separator: ", "),
                at: Point(x: area.x, y: y),
                style: styles.dim,
                clip: area
            )
        }
        y += 2
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
            let media = mediaController.state
            let status: String
            if !media.isMediaLoaded {
                status = "▣ Connected to \(device)"
            } else {
                switch media.playerState {
                case .some(.paused): status = "▣ Paused on \(device)"
                case .some(.buffering), .some(.loading): status = "▣ Loading on \(device)"
                case .some(.playing): status = "▣ Playing on \(device)"
                default: status = "▣ Connected to \(device)"
                }
            }
            buffer.write(
                status,
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
        let bar = SeekBar(position: position, duration: item.isLive ? nil : item.duration, style: glyphs.bar)
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
        var y = listRect.maxY + 1
        for line in settingsInformation(width: area.width) where y < area.maxY {
            buffer.write(
                TextLayout.truncate(line.text, toWidth: area.width, ellipsis: glyphs.ellipsis),
                at: Point(x: area.x, y: y),
                style: line.heading ? styles.heading : styles.dim,
                clip: area
            )
            y += 1
        }
    }

    /// What the settings screen tells beyond the fields: how pictures are drawn, the built-in
    /// media, and the image the picker chooses in each place for the selected video.
    private func settingsInformation(width: Int) -> [(text: String, heading: Bool)] {
        var lines: [(String, Bool)] = []
        let graphics = terminal.graphics
        let cells =
            terminal.capabilities.colors == .none
            ? "shades (no colour)" : "half blocks in \(terminal.capabilities.colors)"
        let drawing = graphics.graphicsProtocol.map { "\($0) (\(graphics.reason))" } ?? "\(cells) (\(graphics.reason))"
        lines.append(("Pictures: " + drawing, false))
        if let builtInMediaStatus { lines.append(("Built-in media: " + builtInMediaStatus, false)) }
        guard let catalog, !catalog.items.isEmpty else { return lines }
        let index = min(listState.selection ?? 0, catalog.items.count - 1)
        let item = catalog.items[index]
        lines.append(("", false))
        lines.append(("Image picker (\(settings.imagePickerChoice.rawValue)), by place, for “\(item.title)”:", true))
        for place in PicturePlace.allCases {
            let wanted = place.hints.preferredSize.map { "\($0)" } ?? "any size"
            let chosen: String
            if let metadata = item.mediaInformation.metadata,
                let image = place.image(from: metadata, picker: context.imagePicker)
            {
                let size = image.width.flatMap { width in image.height.map { "\(width)×\($0)" } } ?? "size unknown"
                chosen = "\(size)  \(image.url.split(separator: "/").suffix(2).joined(separator: "/"))"
            } else {
                chosen = "no image"
            }
            lines.append(
                (
                    "  " + TextLayout.pad(place.name, toWidth: 20)
                        + TextLayout.pad("\(place.hints.use) \(wanted)", toWidth: 30) + "→ " + chosen,
                    false
                )
            )
        }
        return lines
    }

    // MARK: Custom channel

    private func drawCustomChannel(into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        let screen = customChannel
        buffer.write("Custom channel", at: area.origin, style: styles.heading, clip: area)
        buffer.write(
            "Namespace \(CustomChannelScreen.namespace)",
            at: Point(x: area.x, y: area.y + 1),
            style: styles.dim,
            clip: area
        )
        let status: (String, TextStyle)
        if !isConnected {
            status = ("Not connected: press c to cast to a device first.", styles.error)
        } else if screen.appListsNamespace == false {
            status = (
                "The receiver app \(TerminalText.sanitized(screen.appName ?? "?")) does not list this namespace: nothing can reach it.",
                styles.error
            )
        } else if screen.isConnected {
            status = (
                "Connected to \(TerminalText.sanitized(screen.appName ?? "the receiver app")) on \(session?.device.friendlyName ?? "the device")",
                styles.body
            )
        } else {
            status = ("Connecting the channel…", styles.dim)
        }
        buffer.write(status.0, at: Point(x: area.x, y: area.y + 2), style: status.1, clip: area)
        // The conversation, newest at the bottom, above the input line.
        let inputY = area.maxY - 1
        let conversation = Rect(x: area.x, y: area.y + 4, width: area.width, height: max(0, inputY - 1 - (area.y + 4)))
        var rows: [(String, TextStyle)] = []
        for line in screen.lines {
            let text = TerminalText.sanitized(line.text)
            let (prefix, style): (String, TextStyle) =
                switch line.kind {
                case .sent: ("→ you: ", styles.body)
                case .received: ("← receiver: ", styles.heading)
                case .note: ("· ", styles.dim)
                }
            for (index, part) in TextLayout.wrap(prefix + text, width: max(1, conversation.width)).enumerated() {
                rows.append((index == 0 ? part : "  " + part, style))
            }
        }
        if rows.isEmpty {
            rows = [("Type a message and press ⏎: the receiver app answers on the channel.", styles.dim)]
        }
        for (offset, row) in rows.suffix(conversation.height).enumerated() {
            buffer.write(
                row.0,
                at: Point(x: conversation.x, y: conversation.y + offset),
                style: row.1,
                clip: conversation
            )
        }
        let shown = TextLayout.truncate(
            String(screen.input.suffix(max(0, area.width - 4))),
            toWidth: max(0, area.width - 4),
            ellipsis: glyphs.ellipsis
        )
        buffer.write("> " + shown, at: Point(x: area.x, y: inputY), style: styles.heading, clip: area)
        if modal == nil { buffer.cursor = Point(x: area.x + 2 + TextLayout.width(of: shown), y: inputY) }
    }
}
