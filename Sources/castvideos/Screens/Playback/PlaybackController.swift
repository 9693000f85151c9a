import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// How a chosen item goes to the device.
enum RemoteLoadMode: Sendable {
    /// Replace what plays with a one-item queue ("Play Now").
    case now
    /// Insert after the item playing ("Play Next").
    case next
    /// Append to the queue ("Add to Queue").
    case append
}

/// Where the app plays media (the codelab's playback mode): the local player, the item it
/// plays and its volume, the item last seen on the device, moving playback between the two
/// as sessions start and end, loading items on the device, and the detail screen.
@MainActor
final class PlaybackController {
    /// Where media plays.
    enum Mode {
        case none
        case local
        case remote
    }

    unowned let app: AppModel
    private(set) var mode = Mode.none
    var localPlayer = LocalPlayer<AppModel.Instant>()
    private(set) var localItem: MediaItem?
    /// The local player's volume in percent (the volume keys change it when not casting).
    var localVolume = 80
    var localMuted = false
    /// The catalog item last seen playing on the device: what local playback continues.
    private(set) var lastRemoteItem: MediaItem?

    init(app: AppModel) {
        self.app = app
    }

    /// Whether the detail screen shows and plays locally (space is the local player's then).
    var isLocalPlayerScreen: Bool {
        if case .detail = app.topScreen, mode != .remote { return true }
        return false
    }

    /// Follows the local player's end and the item playing on the device.
    func tick(at now: AppModel.Instant) {
        if localPlayer.update(at: now) {
            app.toast("Finished: \(localItem?.title ?? "video")")
        }
        if let client = app.remoteClient, let item = app.catalog?.item(contentID: client.mediaStatus?.media?.contentID)
        {
            lastRemoteItem = item
        }
    }

    // MARK: Switching playback (the codelab's switchToRemotePlayback / switchToLocalPlayback)

    /// Moves local playback to the device: a one-item queue at the local position, playing
    /// unless the local player was paused.
    func switchToRemotePlayback() {
        guard mode != .remote else { return }
        guard let client = app.remoteClient else { return }
        if localPlayer.isActive, let item = localItem {
            let position = localPlayer.position(at: app.now)
            let paused = localPlayer.state == .paused
            var queueItem = QueueItem(media: item.mediaInformation, autoplay: !paused, startTime: position)
            queueItem.preloadTime = app.settings.preloadTime
            var request = LoadRequestData(
                media: item.mediaInformation,
                queueData: QueueData(repeatMode: .off, items: [queueItem]),
                autoplay: !paused,
                currentTime: position
            )
            app.applyCredentials(to: &request)
            app.report(client.load(request), failure: "Could not load \(item.title) on the device")
            lastRemoteItem = item
            localPlayer.stop(at: app.now)
        }
        mode = .remote
    }

    /// Continues on the local player where the device was: the last known position, playing
    /// unless the device was paused or had finished.
    func switchToLocalPlayback(from client: RemoteMediaClient) {
        guard mode == .remote || localItem != nil || lastRemoteItem != nil else {
            mode = .local
            return
        }
        let item = app.catalog?.item(contentID: client.mediaStatus?.media?.contentID) ?? lastRemoteItem
        mode = .local
        guard let item else { return }
        // Read from the media controller, as the codelab does; the client keeps the same values.
        let position =
            app.mediaController.state.isConnected
            ? client.lastKnownStreamPosition : app.mediaController.lastKnownStreamPosition
        let state = app.mediaController.lastKnownPlayerState ?? client.lastKnownPlayerState
        let playing = !(state == .paused || state == .idle || state == nil)
        localItem = item
        localPlayer.load(duration: item.duration, position: position, playing: playing, at: app.now)
        if case .detail = app.topScreen {
            app.screens[app.screens.count - 1] = .detail(item)
        }
    }

    // MARK: Loading on the device

    /// Sends `item` to the device.
    func loadRemote(_ item: MediaItem, mode: RemoteLoadMode) {
        guard let client = app.remoteClient else {
            app.toast("Not connected to a Cast device")
            return
        }
        var queueItem = QueueItem(media: item.mediaInformation, autoplay: true)
        queueItem.preloadTime = app.settings.preloadTime
        // Queueing needs a media session; without one the item is loaded instead.
        let hasMedia = client.mediaStatus?.media != nil
        switch hasMedia ? mode : .now {
        case .now:
            let repeatMode = client.mediaStatus?.repeatMode ?? .off
            var request = LoadRequestData(
                media: item.mediaInformation,
                queueData: QueueData(repeatMode: repeatMode, items: [queueItem]),
                autoplay: true
            )
            app.applyCredentials(to: &request)
            app.report(client.load(request), failure: "Could not load \(item.title)")
            lastRemoteItem = item
            localPlayer.stop(at: app.now)
            self.mode = .remote
        // Step 9: once the device loaded it, the context presents the expanded controller
        // (`useDefaultExpandedMediaControls`); see `containerChanged(_:)`.
        case .append:
            app.report(
                client.queueInsertItem(queueItem, beforeItemID: MediaQueueItemID.invalid),
                failure: "Could not queue \(item.title)"
            )
            app.toast("Added to queue: \(item.title)")
        case .next:
            let ids = client.mediaQueue.itemIDs
            var before = MediaQueueItemID.invalid
            if let current = client.mediaStatus?.currentItemID, let index = ids.firstIndex(of: current),
                index + 1 < ids.count
            {
                before = ids[index + 1]
            }
            app.report(
                client.queueInsertItem(queueItem, beforeItemID: before),
                failure: "Could not queue \(item.title)"
            )
            app.toast("Playing next: \(item.title)")
        }
    }

    // MARK: Detail screen

    /// The detail screen's keys.
    func handleDetail(_ event: KeyEvent, item: MediaItem) {
        switch event.key {
        case .escape, .backspace:
            app.pop()
        case .left where localItem != item || !localPlayer.isActive:
            app.pop()
        case .enter, .character(" "), .character("p"):
            if app.isConnected {
                app.modal = .actionSheet(
                    Dialog(
                        title: "Play Item",
                        message: "Select an action\n\(item.title)",
                        buttons: ["Play Now", "Play Next", "Add to Queue", "Cancel"]
                    ),
                    item
                )
                return
            }
            if localItem != item {
                localItem = item
                localPlayer.load(duration: item.duration, position: 0, playing: true, at: app.now)
            } else {
                localPlayer.togglePlayPause(at: app.now)
            }
            mode = .local
        case .left:
            if localItem == item { localPlayer.seek(by: -10, at: app.now) }
        case .right:
            if localItem == item { localPlayer.seek(by: 10, at: app.now) }
        case .character("x"):
            if localItem == item { localPlayer.stop(at: app.now) }
        case .character("u"):
            app.queueScreen.open()
        case .character("h"):
            app.openCustomChannel()
        default:
            break
        }
    }

    private var styles: AppStyles { app.styles }
    private var glyphs: Glyphs { app.glyphs }

    /// The detail screen of `item`: its poster and text above the local player, or what plays on
    /// the device while casting.
    func drawDetail(_ item: MediaItem, into buffer: inout ScreenBuffer, in rect: Rect, now: AppModel.Instant) {
        var area = rect.inset(left: 2, right: 2)
        let playerHeight = 5
        // The poster on the left, portrait, above the player.
        let posterWidth = area.width >= 60 ? min(26, area.width / 3) : 0
        let posterHeight = max(0, area.height - playerHeight - 1)
        if posterWidth > 0, posterHeight >= 6 {
            app.drawPicture(
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
        let remote = mode == .remote && app.isConnected
        if remote {
            let device = app.session?.device.friendlyName ?? "the Cast device"
            let media = app.mediaController.state
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
            style: app.iconStyle(expanded: false),
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
        let hint =
            app.isConnected ? "⏎ choose Play Now, Play Next or Add to Queue" : "⏎ play/pause  ←→ seek 10s  x stop"
        buffer.write(hint, at: Point(x: inner.x + 1, y: inner.y + 2), style: styles.dim, clip: inner)
    }
}
