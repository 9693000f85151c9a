import CastCore
import CastSender
import CastSenderUI
import TerminalUI

/// The media controls of a session: the expanded controller (full screen) and the mini
/// controller docked under the other screens, as the Cast widgets' states drawn here, and the
/// commands their keys send to the device.
@MainActor
final class ExpandedControls {
    unowned let app: AppModel

    init(app: AppModel) {
        self.app = app
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    // MARK: Keys

    /// The expanded controller's keys.
    func handleExpanded(_ event: KeyEvent) {
        if app.selectMember(with: event) { return }
        switch event.key {
        case .escape, .backspace:
            app.pop()
        case .character(" "), .enter:
            togglePlayPause()
        case .left:
            seek(by: -30)
        case .right:
            seek(by: 30)
        case .character("x"):
            stop()
        case .character("r"):
            cycleRate()
        case .character("t"):
            app.trackSelector.open()
        case .character("l"):
            cycleRepeat()
        case .character("n"):
            skip(next: true)
        case .character("b"):
            skip(next: false)
        case .character("u"):
            app.queueScreen.open()
        case .character("s"):
            skipAd()
        case .character("h"):
            app.openCustomChannel()
        default:
            break
        }
    }

    /// The mini controller's keys: space plays or pauses the device, `e` opens the expanded
    /// controller.
    func handleMiniController(_ event: KeyEvent) -> Bool {
        switch event.key {
        case .character(" ") where !app.playback.isLocalPlayerScreen:
            app.container.miniController.togglePlayPause()
            return true
        case .character("e"):
            if app.container.miniController.select() { app.push(.expandedController) }
            return true
        default:
            return false
        }
    }

    // MARK: Commands

    /// The expanded controller's play/pause button.
    func togglePlayPause() {
        app.report(app.mediaController.togglePlayPause(), failure: "Play/pause failed")
    }

    func seek(by seconds: Double) {
        let request =
            seconds >= 0 ? app.mediaController.skipForward(by: seconds) : app.mediaController.skipBackward(by: -seconds)
        app.report(request, failure: "Seek failed")
    }

    func stop() {
        app.report(app.mediaController.stop(), failure: "Stop failed")
    }

    /// The playback-rate control: normal → double → half → normal.
    func cycleRate() {
        let segment = app.mediaController.state.playbackRate.segment ?? .normal
        let next: PlaybackRateSegment =
            switch segment {
            case .normal: .double
            case .double: .half
            case .half: .normal
            }
        guard let request = app.mediaController.setPlaybackRate(next) else {
            app.toast("The playback rate cannot be changed now")
            return
        }
        app.report(request, failure: "Playback rate failed")
        app.toast("Playback rate: \(next.title)")
    }

    /// The repeat button: off → all → one → off.
    func cycleRepeat() {
        let next = QueueNavigationState.next(after: app.mediaController.state.queue.repeatMode)
        guard let request = app.mediaController.cycleRepeatMode() else {
            app.flash("Repeat needs a queue of two or more items")
            return
        }
        app.report(request, failure: "Repeat failed")
        app.flash("Repeat: \(QueueNavigationState.label(for: next))")
    }

    /// Next or previous queue item.
    func skip(next: Bool) {
        let request = next ? app.mediaController.skipToNext() : app.mediaController.skipToPrevious()
        guard let request else {
            app.flash(next ? "There is no next item" : "There is no previous item")
            return
        }
        app.report(request, failure: next ? "Next failed" : "Previous failed")
    }

    /// The expanded controller's skip-ad button: skips the playing clip once it allows it,
    /// else says how long is left.
    func skipAd() {
        guard let ad = app.mediaController.state.adBreak else {
            app.flash("No ad is playing")
            return
        }
        guard let request = app.mediaController.skipAd() else {
            switch ad.skip {
            case .countdown(let seconds): app.flash("The ad can be skipped in \(seconds) s")
            default: app.flash("This ad cannot be skipped")
            }
            return
        }
        app.report(request, failure: "Skip ad failed")
        app.flash("Ad skipped")
    }

    // MARK: Mini controller

    /// The mini controller docked under every screen (the widget's state, drawn here).
    func drawMiniController(into buffer: inout ScreenBuffer, in rect: Rect) {
        let mini = app.container.miniController.state
        let media = app.mediaController.state
        let style = styles.miniController
        buffer.fill(rect, style: style)
        let (icon, stateText) = app.playerStateLabel(media.playerState)
        var rect = rect
        // The thumbnail, from the image cache, when it could be decoded.
        if mini.thumbnail?.image != nil, rect.width > 30 {
            app.drawArtwork(
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
        guard let client = app.remoteClient else {
            buffer.write("Not connected.", at: area.origin, style: styles.dim)
            return
        }
        let state = app.container.expandedController.state
        let media = app.mediaController.state
        let base = styles.expandedController
        var y = area.y
        let device = app.session?.device.friendlyName ?? "Cast device"
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
            app.drawArtwork(state.artwork, title: state.title, into: &buffer, in: inner, style: base.adding(.dim))
        }
        let textX = artwork.height >= 3 ? artwork.maxX + 2 : area.x
        let textArea = Rect(x: textX, y: y, width: max(0, area.maxX - textX), height: max(0, area.maxY - y))
        buffer.write(state.title ?? "Nothing playing", at: textArea.origin, style: styles.castHeading, clip: textArea)
        buffer.write(state.subtitle ?? "", at: Point(x: textX, y: y + 1), style: base, clip: textArea)
        let (icon, stateText) = app.playerStateLabel(media.playerState)
        let rate = state.playbackRate.segment?.title ?? "Normal"
        let captions = state.tracks.textTracks.first(where: \.isActive)?.title ?? "off"
        let repeatMode = QueueNavigationState.label(for: state.queue.repeatMode)
        buffer.write(
            "\(icon) \(stateText)",
            at: Point(x: textX, y: y + 3),
            style: app.iconStyle(expanded: true),
            clip: textArea
        )
        buffer.write(
            "· speed: \(rate) · subtitles: \(captions) · repeat: \(repeatMode)",
            at: Point(x: textX + TextLayout.width(of: "\(icon) \(stateText)") + 1, y: y + 3),
            style: styles.mediaControlHeading,
            clip: textArea
        )
        let group = app.groupVolume.state
        buffer.write(
            (group.isGroup ? "Group " : "") + AppModel.volumeLine(state.deviceVolume, stream: state.streamVolume),
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
                style: app.iconStyle(expanded: true),
                clip: area
            )
        }
        // On a speaker group, each member's volume (the device volume controller's role).
        var memberY = y + 4
        for line in AppModel.memberVolumeLines(group, selected: app.expandedMember) where memberY < area.maxY {
            buffer.write(line, at: Point(x: area.x, y: memberY), style: base, clip: area)
            memberY += 1
        }
    }
}
