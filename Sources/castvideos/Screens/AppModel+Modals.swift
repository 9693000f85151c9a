import CastCore
import CastSender
import CastSenderUI
import TerminalUI

extension AppModel {
    func drawModal(into buffer: inout ScreenBuffer, in bounds: Rect) {
        guard let modal else { return }
        switch modal {
        case .introductoryOverlay:
            drawIntroductoryOverlay(into: &buffer, in: bounds)
        case .stopCasting(let dialog):
            drawStopCastingDialog(dialog, into: &buffer, in: bounds)
        case .tracks:
            trackSelector.draw(into: &buffer, in: bounds)
        case .interstitial(let dialog), .actionSheet(let dialog, _), .alert(let dialog):
            dialog.draw(
                into: &buffer,
                in: bounds,
                glyphs: glyphs,
                style: styles.dialog,
                selectedButtonStyle: styles.selected
            )
        case .chooser:
            devicePicker.draw(into: &buffer, in: bounds)
        case .help:
            drawHelp(into: &buffer, in: bounds)
        case .edit(let field, let text, let problem):
            settingsScreen.drawEdit(field, text: text, problem: problem, into: &buffer, in: bounds)
        }
    }

    private func drawIntroductoryOverlay(into buffer: inout ScreenBuffer, in bounds: Rect) {
        let overlay = introductoryOverlay.state.overlay ?? .standard
        let width = min(46, bounds.width - 2)
        let rect = Rect(x: max(0, bounds.maxX - width - 1), y: 1, width: width, height: 9)
        let inner = buffer.drawModal(rect, title: "Cast", glyphs: glyphs, style: styles.dialog)
        buffer.put("▲", at: Point(x: min(bounds.maxX - 4, rect.maxX - 4), y: rect.y), style: styles.castButton)
        var y = inner.y
        for line in TextLayout.wrap(overlay.title, width: max(1, inner.width - 2)).prefix(2) {
            buffer.write(line, at: Point(x: inner.x + 1, y: y), style: styles.castHeading, clip: inner)
            y += 1
        }
        let message = overlay.message + " Press c for the Cast button."
        for line in TextLayout.wrap(message, width: max(1, inner.width - 2)).prefix(max(0, inner.maxY - 1 - y)) {
            buffer.write(line, at: Point(x: inner.x + 1, y: y), style: styles.dialog, clip: inner)
            y += 1
        }
        let button = "[ \(overlay.dismissTitle) ]"
        buffer.write(
            button,
            at: Point(x: inner.x + max(0, (inner.width - TextLayout.width(of: button)) / 2), y: inner.maxY - 1),
            style: styles.selected,
            clip: inner
        )
    }

    private func drawStopCastingDialog(_ stored: Dialog, into buffer: inout ScreenBuffer, in bounds: Rect) {
        // The widget's dialog as it is now: what plays, its image, and the device volume.
        let live = castButton.stopCastingDialog
        let artHeight = live?.artwork?.image != nil ? 4 : 0
        var dialog = stored
        var lines = [String](repeating: "", count: artHeight)
        lines.append("Now playing: \(live?.nowPlaying ?? "nothing")")
        lines.append(Self.volumeLine(live?.deviceVolume, stream: mediaController.state.streamVolume))
        lines += Self.memberVolumeLines(groupVolume.state, selected: selectedMember)
        dialog.message = lines.joined(separator: "\n")
        let rect = dialog.draw(
            into: &buffer,
            in: bounds,
            glyphs: glyphs,
            style: styles.dialog,
            selectedButtonStyle: styles.selected
        )
        if artHeight > 0, let live {
            let inner = rect.inset(left: 2, right: 2)
            let art = Rect(
                x: inner.x + max(0, (inner.width - 16) / 2),
                y: rect.y + 1,
                width: min(16, inner.width),
                height: artHeight
            )
            drawArtwork(live.artwork, title: live.mediaTitle, into: &buffer, in: art, style: styles.dialog)
        }
    }

    /// The keys the help lists: the keys, then what they do.
    static let helpEntries: [(keys: String, text: String)] = [
        ("c", "Cast button: choose a device / stop casting"),
        ("k", "Creds: toggle Cast Connect credentials"),
        ("+ - m", "volume up, down, mute (the device's while casting)"),
        ("Ctrl-Z", "suspend to the shell (fg comes back)"),
        ("↑ ↓ ⏎", "move and open; esc or ⌫ goes back"),
        ("⏎ space", "play/pause (a menu while casting)"),
        ("← →", "seek (10 s local, 30 s on the device)"),
        ("space e", "mini controller: play/pause, expand"),
        ("u", "queue: ⏎ jump, d remove, [ ] move"),
        ("r t l", "speed, tracks, repeat (expanded controller)"),
        ("s", "skip the ad once it can be skipped (expanded controller)"),
        ("h", "custom channel: messages to the receiver app"),
        ("1-9 0", "speaker group: a member's volume, the group's"),
        ("n b", "next, previous item"),
        ("s q", "settings (in the list), quit"),
    ]

    private func drawHelp(into buffer: inout ScreenBuffer, in bounds: Rect) {
        // Each description wraps under itself when the box is narrow, so nothing is cut.
        let width = min(bounds.width - 4, 72)
        let keyWidth = 9
        let textWidth = max(8, width - 4 - keyWidth)
        var lines: [String] = []
        for entry in Self.helpEntries {
            for (index, part) in TextLayout.wrap(entry.text, width: textWidth).enumerated() {
                lines.append(TextLayout.pad(index == 0 ? entry.keys : "", toWidth: keyWidth) + part)
            }
        }
        let rect = bounds.centered(Size(width: width, height: min(bounds.height - 2, lines.count + 4)))
        let inner = buffer.drawModal(rect, title: "Keys", glyphs: glyphs, style: styles.dialog)
        for (index, line) in lines.prefix(max(0, inner.height - 2)).enumerated() {
            buffer.write(line, at: Point(x: inner.x + 1, y: inner.y + index), style: styles.dialog, clip: inner)
        }
        buffer.write(
            "Press any key to close",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
    }
}
