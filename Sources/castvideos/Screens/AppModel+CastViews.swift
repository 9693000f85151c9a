import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

extension AppModel {
    /// The icon and word for a device player state.
    func playerStateLabel(_ state: PlayerState?) -> (icon: String, text: String) {
        switch state {
        case .some(.playing): ("▶", "Playing")
        case .some(.paused): ("⏸", "Paused")
        case .some(.buffering), .some(.loading): ("◌", "Buffering")
        default: ("■", "Idle")
        }
    }

    // MARK: Mini controller

    /// The mini controller docked under every screen (the widget's state, drawn here).
    func drawMiniController(into buffer: inout ScreenBuffer, in rect: Rect) {
        let mini = container.miniController.state
        let media = mediaController.state
        let style = styles.miniController
        buffer.fill(rect, style: style)
        let (icon, stateText) = playerStateLabel(media.playerState)
        var rect = rect
        // The thumbnail, from the image cache, when it could be decoded.
        if mini.thumbnail?.image != nil, rect.width > 30 {
            drawArtwork(
                mini.thumbnail,
                title: nil,
                into: &buffer,
                in: Rect(x: rect.x, y: rect.y, width: 4, height: 2),
                style: style
            )
            rect = rect.inset(left: 4, right: 0)
        }
        let top = rect.row(0)
        let subtitle = mini.subtitle ?? ""
        let left = " \(icon) \(mini.title ?? "Casting")" + (subtitle.isEmpty ? "" : " — \(subtitle)")
        let right = "\(stateText)  \(media.seekBar.positionText) / \(media.seekBar.durationText) "
        let rightWidth = TextLayout.width(of: right)
        buffer.write(
            TextLayout.truncate(left, toWidth: max(0, top.width - rightWidth - 1), ellipsis: glyphs.ellipsis),
            at: top.origin,
            style: style.adding(.bold),
            clip: top
        )
        buffer.write(right, at: Point(x: top.maxX - rightWidth, y: top.y), style: style, clip: top)
        buffer.write(
            icon,
            at: Point(x: top.x + 1, y: top.y),
            style: style.foreground(styles.iconTint ?? style.foreground).adding(.bold)
        )
        let bottom = rect.row(1)
        let action = mini.playPause.action == .pause ? "pause" : "play"
        let hint = " space \(action) · e expand "
        let barWidth = max(0, bottom.width - TextLayout.width(of: hint) - 2)
        let bar = ProgressBar(fraction: mini.progress ?? 0, style: glyphs.bar).render(width: barWidth)
        buffer.write(" " + bar, at: bottom.origin, style: style, clip: bottom)
        buffer.write(
            hint,
            at: Point(x: bottom.maxX - TextLayout.width(of: hint), y: bottom.y),
            style: style,
            clip: bottom
        )
    }

    // MARK: Expanded controller

    /// The expanded controller (the widget's state, drawn full screen).
    func drawExpandedController(into buffer: inout ScreenBuffer, in rect: Rect) {
        buffer.fill(rect, style: styles.expandedController)
        let area = rect.inset(left: 2, right: 2)
        guard let client = remoteClient else {
            buffer.write("Not connected.", at: area.origin, style: styles.dim)
            return
        }
        let state = container.expandedController.state
        let media = mediaController.state
        let base = styles.expandedController
        var y = area.y
        let device = session?.device.friendlyName ?? "Cast device"
        buffer.write("Casting on \(device)", at: Point(x: area.x, y: y), style: base.adding(.dim), clip: area)
        y += 2
        // The artwork as large as the screen allows beside the text, above the controls.
        let artwork = Rect(
            x: area.x,
            y: y,
            width: min(44, area.width * 2 / 5),
            height: min(20, max(0, area.maxY - y - 8))
        )
        if artwork.height >= 3, artwork.width >= 8 {
            // The artwork as the image picker chose it, fetched through the image cache and
            // decoded; the title stands in while it loads or when it cannot be read.
            let inner = buffer.drawBox(artwork, border: glyphs.box, style: base.adding(.dim), title: "Artwork")
            drawArtwork(state.artwork, title: state.title, into: &buffer, in: inner, style: base.adding(.dim))
        }
        let textX = artwork.height >= 3 ? artwork.maxX + 2 : area.x
        let textArea = Rect(x: textX, y: y, width: max(0, area.maxX - textX), height: max(0, area.maxY - y))
        buffer.write(state.title ?? "Nothing playing", at: textArea.origin, style: styles.castHeading, clip: textArea)
        buffer.write(state.subtitle ?? "", at: Point(x: textX, y: y + 1), style: base, clip: textArea)
        let (icon, stateText) = playerStateLabel(media.playerState)
        let rate = state.playbackRate.segment?.title ?? "Normal"
        let captions = state.tracks.textTracks.first(where: \.isActive)?.title ?? "off"
        let repeatMode = QueueNavigationState.label(for: state.queue.repeatMode)
        buffer.write(
            "\(icon) \(stateText)",
            at: Point(x: textX, y: y + 3),
            style: iconStyle(expanded: true),
            clip: textArea
        )
        buffer.write(
            "· speed: \(rate) · subtitles: \(captions) · repeat: \(repeatMode)",
            at: Point(x: textX + TextLayout.width(of: "\(icon) \(stateText)") + 1, y: y + 3),
            style: styles.mediaControlHeading,
            clip: textArea
        )
        let group = groupVolume.state
        buffer.write(
            (group.isGroup ? "Group " : "") + volumeLine(state.deviceVolume, stream: state.streamVolume),
            at: Point(x: textX, y: y + 6),
            style: base,
            clip: textArea
        )
        let queueCount = client.mediaQueue.itemCount
        if queueCount > 0, let current = client.mediaStatus?.currentItemID,
            let index = client.mediaQueue.index(ofItemID: current)
        {
            buffer.write(
                "Queue: item \(index + 1) of \(queueCount)",
                at: Point(x: textX, y: y + 4),
                style: base.adding(.dim),
                clip: textArea
            )
        }
        if let ad = state.adBreak {
            // The skip-ad control with its countdown ("Skip ad in 3…" → "Skip ad"), and the
            // key once it can be used.
            let left = ad.clipRemaining.map { " · \(Int($0.rounded(.up))) s left" } ?? ""
            let key = ad.canSkip ? " (s)" : ""
            buffer.write(
                "Ad: \(TerminalText.sanitized(ad.clipTitle ?? "break"))\(left) · \(ad.skipLabel)\(key)",
                at: Point(x: textX, y: y + 5),
                style: styles.error,
                clip: textArea
            )
        }
        y = max(y + 8, artwork.maxY + 1)
        guard y < area.maxY else { return }
        if state.showsSeekBar {
            let bar = SeekBar(position: state.seekBar.position, duration: state.seekBar.duration, style: glyphs.bar)
            buffer.write(bar.render(width: area.width), at: Point(x: area.x, y: y), style: base, clip: area)
        }
        if y + 2 < area.maxY {
            let toggle = state.playPause.action == .pause ? styles.glyph(.pause, "⏸") : styles.glyph(.play, "▶")
            let previous = styles.glyph(.skipPrevious, "⏮")
            let rewind = styles.glyph(.rewind30Seconds, "«")
            let forward = styles.glyph(.forward30Seconds, "»")
            let next = styles.glyph(.skipNext, "⏭")
            let stop = styles.glyph(.stop, "■")
            buffer.write(
                "\(previous) b   \(rewind) ←   \(toggle) space   → \(forward)   n \(next)   x \(stop) stop   r speed   t tracks   l repeat",
                at: Point(x: area.x, y: y + 2),
                style: iconStyle(expanded: true),
                clip: area
            )
        }
        // On a speaker group, each member's volume (the device volume controller's role).
        var memberY = y + 4
        for line in Self.memberVolumeLines(group, selected: expandedMember) where memberY < area.maxY {
            buffer.write(line, at: Point(x: area.x, y: memberY), style: base, clip: area)
            memberY += 1
        }
    }

    // MARK: Queue

    func drawQueue(into buffer: inout ScreenBuffer, in rect: Rect) {
        let area = rect.inset(left: 2, right: 2)
        guard let client = remoteClient else {
            buffer.write("Not connected.", at: area.origin, style: styles.dim)
            return
        }
        let queue = client.mediaQueue
        let count = queue.itemCount
        buffer.write(
            "Queue on \(session?.device.friendlyName ?? "device") — \(count) item\(count == 1 ? "" : "s")",
            at: area.origin,
            style: styles.heading,
            clip: area
        )
        if queueState.count != count { queueState.setCount(count) }
        let listRect = Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2))
        guard count > 0 else {
            buffer.write("The queue is empty.", at: listRect.origin, style: styles.dim, clip: listRect)
            return
        }
        let current = client.mediaStatus?.currentItemID
        buffer.drawList(in: listRect, state: &queueState, selectedStyle: styles.selected, glyphs: glyphs) {
            buffer,
            index,
            row,
            selected in
            let item = queue.item(at: index)
            let id = queue.itemID(at: index)
            let playing = id != nil && id == current
            let title = item?.media?.metadata?.title ?? "Loading…"
            let duration = item?.media?.duration.map { TimeFormat.string(seconds: $0) } ?? ""
            let marker = playing ? "▶" : " "
            let text = "\(selected ? glyphs.selectionMarker : " ") \(marker) \(index + 1). \(title)"
            buffer.write(
                TextLayout.truncate(text, toWidth: max(0, row.width - 8), ellipsis: glyphs.ellipsis),
                at: row.origin,
                style: selected ? styles.selected : styles.body,
                clip: row
            )
            buffer.write(
                duration,
                at: Point(x: row.maxX - TextLayout.width(of: duration) - 1, y: row.y),
                style: selected ? styles.selected : styles.dim,
                clip: row
            )
        }
    }

    // MARK: Modals

    func drawModal(into buffer: inout ScreenBuffer, in bounds: Rect) {
        guard let modal else { return }
        switch modal {
        case .introductoryOverlay:
            drawIntroductoryOverlay(into: &buffer, in: bounds)
        case .stopCasting(let dialog):
            drawStopCastingDialog(dialog, into: &buffer, in: bounds)
        case .tracks:
            drawTrackSelector(into: &buffer, in: bounds)
        case .interstitial(let dialog), .actionSheet(let dialog, _), .alert(let dialog):
            dialog.draw(
                into: &buffer,
                in: bounds,
                glyphs: glyphs,
                style: styles.dialog,
                selectedButtonStyle: styles.selected
            )
        case .chooser:
            drawChooser(into: &buffer, in: bounds)
        case .help:
            drawHelp(into: &buffer, in: bounds)
        case .edit(let field, let text, let problem):
            let width = min(bounds.width - 4, 60)
            let rect = bounds.centered(Size(width: width, height: problem == nil ? 6 : 7))
            let inner = buffer.drawModal(rect, title: field.title, glyphs: glyphs, style: styles.dialog)
            buffer.write(field.note, at: Point(x: inner.x + 1, y: inner.y), style: styles.dim, clip: inner)
            let shown = TextLayout.truncate(text, toWidth: max(0, inner.width - 4), ellipsis: glyphs.ellipsis)
            buffer.write("> " + shown, at: Point(x: inner.x + 1, y: inner.y + 2), style: styles.heading, clip: inner)
            buffer.cursor = Point(x: inner.x + 3 + TextLayout.width(of: shown), y: inner.y + 2)
            if let problem {
                buffer.write(problem, at: Point(x: inner.x + 1, y: inner.y + 3), style: styles.error, clip: inner)
            }
            buffer.write(
                "⏎ save  esc cancel",
                at: Point(x: inner.x + 1, y: inner.maxY - 1),
                style: styles.dim,
                clip: inner
            )
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

    private func drawChooser(into buffer: inout ScreenBuffer, in bounds: Rect) {
        guard let chooser else { return }
        let state = chooser.state
        let width = min(60, bounds.width - 4)
        var body: [String] = []
        switch state.phase {
        case .searching:
            body = ["Looking for devices…"]
        case .noDevices(let guidance):
            body = [guidance.title] + TextLayout.wrap(guidance.message, width: max(1, width - 4))
            body += guidance.reasons.map { "• \($0.title)" }
            body.append("Press r to \(guidance.retryTitle.lowercased()).")
        case .devices:
            body = []
        }
        // Without discovery the chooser says why: the reason discovery could not start.
        let status: String
        if state.isDiscoveryActive {
            status = "Discovery is on"
        } else if let reason = discoveryFailure {
            status = "Discovery could not start: \(reason)"
        } else {
            status = "Known devices only (discovery off)"
        }
        let statusLines = Array(TextLayout.wrap(status, width: max(1, width - 4)).prefix(4))
        let rows = state.phase == .devices ? max(1, state.devices.count) : body.count
        let height = min(bounds.height - 2, rows + 4 + statusLines.count + (state.errorMessage == nil ? 0 : 1))
        let rect = bounds.centered(Size(width: width, height: height))
        let inner = buffer.drawModal(rect, title: "Cast to a device", glyphs: glyphs, style: styles.dialog)
        for (index, line) in statusLines.enumerated() {
            buffer.write(
                line,
                at: Point(x: inner.x + 1, y: inner.y + index),
                style: discoveryFailure == nil || state.isDiscoveryActive ? styles.dim : styles.error,
                clip: inner
            )
        }
        let listTop = inner.y + statusLines.count + 1
        let listRect = Rect(x: inner.x, y: listTop, width: inner.width, height: max(0, inner.maxY - 1 - listTop))
        if state.phase == .devices {
            let devices = state.devices
            if chooserState.count != devices.count { chooserState.setCount(devices.count) }
            buffer.drawList(
                in: listRect,
                state: &chooserState,
                style: styles.dialog,
                selectedStyle: styles.selected,
                glyphs: glyphs
            ) {
                buffer,
                index,
                row,
                selected in
                let device = devices[index]
                var text = "\(selected ? glyphs.selectionMarker : " ") ▭ \(device.name)"
                text += Self.groupNote(for: device)
                if device.id == state.connectingDeviceID {
                    text += " — connecting…"
                } else if let status = device.statusText, !status.isEmpty {
                    text += " — \(status)"
                }
                buffer.write(
                    TextLayout.truncate(text, toWidth: row.width, ellipsis: glyphs.ellipsis),
                    at: row.origin,
                    style: selected ? styles.selected : styles.dialog,
                    clip: row
                )
            }
        } else {
            for (index, line) in body.prefix(listRect.height).enumerated() {
                buffer.write(
                    line,
                    at: Point(x: listRect.x + 1, y: listRect.y + index),
                    style: styles.dialog,
                    clip: listRect
                )
            }
        }
        if let error = state.errorMessage {
            buffer.write(error, at: Point(x: inner.x + 1, y: inner.maxY - 2), style: styles.error, clip: inner)
        }
        buffer.write(
            "⏎ connect  r search again  esc close",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
    }

    /// What the chooser says of a device's speaker groups: ` (speaker group: Kitchen, Hall)`
    /// for a group (members when known), ` (in Downstairs)` for a member, nothing otherwise.
    /// The names are the devices' own, sanitized.
    static func groupNote(for device: DeviceChooserModel.Device) -> String {
        let names = { (names: [String]) in names.map { TerminalText.sanitized($0) }.joined(separator: ", ") }
        if device.isGroup {
            return device.members.isEmpty ? " (speaker group)" : " (speaker group: \(names(device.members)))"
        }
        return device.groups.isEmpty ? "" : " (in \(names(device.groups)))"
    }

    /// One line per member of a speaker group (`  1 Kitchen ▮▮▮▮▯▯▯▯▯▯ 40%`, `▸` on the
    /// member the volume keys act on), none for a single device.
    static func memberVolumeLines(_ state: GroupVolumeModel.State, selected: String? = nil) -> [String] {
        guard state.isGroup, !state.members.isEmpty else { return [] }
        let width = min(16, state.members.map { TextLayout.width(of: TerminalText.sanitized($0.name)) }.max() ?? 0)
        let keys = state.members.count > 1 ? "1-\(min(9, state.members.count))" : "1"
        let header = "Members (\(keys): choose, 0: the group; +/- m act on \(selected == nil ? "the group" : "it")):"
        return [header]
            + state.members.enumerated().map { index, member in
                let name = String(TerminalText.sanitized(member.name).prefix(width))
                let padded = name + String(repeating: " ", count: max(0, width - TextLayout.width(of: name)))
                let filled = Int((min(max(member.volume.level, 0), 1) * 10).rounded())
                let bar = String(repeating: "▮", count: filled) + String(repeating: "▯", count: 10 - filled)
                let marker = member.id == selected ? "▸" : " "
                let key = index < 9 ? "\(index + 1)" : " "
                return "\(marker)\(key) \(padded) \(bar) \(member.volume.percent)%"
                    + (member.volume.isMuted ? " (muted)" : "")
            }
    }

    /// The volume of the session's device (or the stream's on a fixed-volume device) as a
    /// bar and a percentage.
    func volumeLine(_ device: DeviceVolumeState?, stream: StreamVolumeState?) -> String {
        func bar(_ level: Double) -> String {
            let filled = Int((min(max(level, 0), 1) * 10).rounded())
            return String(repeating: "▮", count: filled) + String(repeating: "▯", count: 10 - filled)
        }
        if let device, device.inputEnabled {
            return "Volume \(bar(device.level)) \(device.percent)%" + (device.isMuted ? " (muted)" : "") + "  +/- m"
        }
        if let device, device.isFixedVolume {
            if let stream, stream.canChangeLevel || stream.canMute {
                let percent = Int((stream.level * 100).rounded())
                return "Volume: fixed · stream \(bar(stream.level)) \(percent)%" + (stream.isMuted ? " (muted)" : "")
            }
            return "Volume: fixed by the device"
        }
        return "Volume: unknown"
    }

    private func drawStopCastingDialog(_ stored: Dialog, into buffer: inout ScreenBuffer, in bounds: Rect) {
        // The widget's dialog as it is now: what plays, its image, and the device volume.
        let live = castButton.stopCastingDialog
        let artHeight = live?.artwork?.image != nil ? 4 : 0
        var dialog = stored
        var lines = [String](repeating: "", count: artHeight)
        lines.append("Now playing: \(live?.nowPlaying ?? "nothing")")
        lines.append(volumeLine(live?.deviceVolume, stream: mediaController.state.streamVolume))
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

    private func drawTrackSelector(into buffer: inout ScreenBuffer, in bounds: Rect) {
        let state = trackSelection.state
        let rows = trackRows
        if tracksState.count != rows.count { tracksState.setCount(rows.count) }
        let width = min(56, bounds.width - 4)
        let rect = bounds.centered(Size(width: width, height: min(bounds.height - 2, rows.count + 5)))
        let inner = buffer.drawModal(rect, title: "Tracks", glyphs: glyphs, style: styles.dialog)
        let listRect = Rect(x: inner.x, y: inner.y, width: inner.width, height: max(0, inner.height - 1))
        buffer.drawList(
            in: listRect,
            state: &tracksState,
            style: styles.dialog,
            selectedStyle: styles.selected,
            glyphs: glyphs
        ) {
            buffer,
            index,
            row,
            selected in
            let text: String
            let active: Bool
            switch rows[index] {
            case .textOff:
                text = "Subtitles: Off"
                active = state.selectedTextTrackID == nil
            case .text(let id):
                text = "Subtitles: " + (state.textTracks.first { $0.id == id }?.title ?? "track \(id)")
                active = state.selectedTextTrackID == id
            case .audio(let id):
                text = "Audio: " + (state.audioTracks.first { $0.id == id }?.title ?? "track \(id)")
                active = state.selectedAudioTrackID == id
            case .style(let preset):
                text = "Subtitle style: \(preset.name)"
                active = state.selectedStylePresetID == preset.id
            }
            let line = "\(selected ? glyphs.selectionMarker : " ") \(active ? "●" : "○") \(text)"
            buffer.write(
                TextLayout.truncate(line, toWidth: row.width, ellipsis: glyphs.ellipsis),
                at: row.origin,
                style: selected ? styles.selected : styles.dialog,
                clip: row
            )
        }
        buffer.write(
            "⏎ choose  esc close",
            at: Point(x: inner.x + 1, y: inner.maxY - 1),
            style: styles.dim,
            clip: inner
        )
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
