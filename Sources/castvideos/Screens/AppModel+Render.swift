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
            expandedControls.drawMiniController(
                into: &buffer,
                in: Rect(x: 0, y: contentBottom + 1, width: bounds.width, height: 2)
            )
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
        if catalogScreen.hasFailed, topScreen == .list { return "r retry  c cast" }
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
            catalogScreen.draw(into: &buffer, in: rect)
        case .detail(let item):
            playback.drawDetail(item, into: &buffer, in: rect, now: now)
        case .expandedController:
            expandedControls.drawExpandedController(into: &buffer, in: rect)
        case .queue:
            queueScreen.draw(into: &buffer, in: rect)
        case .settings:
            settingsScreen.draw(into: &buffer, in: rect)
        case .customChannel:
            drawCustomChannel(into: &buffer, in: rect)
        }
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
