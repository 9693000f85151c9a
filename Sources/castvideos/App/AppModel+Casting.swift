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

extension AppModel {
    // MARK: Session events

    func handle(_ event: SessionEvent) {
        let session = event.session
        switch event.kind {
        case .willStart:
            self.session = session
        case .didStart:
            attach(session)
            // The connecting note is over: the connection's outcome replaces it.
            toasts.withdraw(now: now) { $0.hasPrefix("Connecting to ") }
            toast("Connected to \(session.device.friendlyName ?? "the device")")
            switchToRemotePlayback()
            closeChooser()
        case .didResume:
            attach(session)
            toast("Resumed casting on \(session.device.friendlyName ?? "the device")")
            switchToRemotePlayback()
        case .didFailToStart:
            toasts.withdraw(now: now) { $0.hasPrefix("Connecting to ") }
            detachSession()
            closeChooser()
            let reason = event.error?.description ?? "unknown error"
            modal = .alert(Dialog(title: "Failed to start a session", message: reason))
        case .didEnd:
            var message = "The Casting session has ended."
            if let error = event.error { message += "\n\(error.description)" }
            toast(message, seconds: 6)
            switchToLocalPlayback(from: session.remoteMediaClient)
            detachSession()
            closeCastModals()
            popCastScreens()
        case .didFailToResume:
            toast("The Casting session could not be resumed.", seconds: 6)
            switchToLocalPlayback(from: session.remoteMediaClient)
            detachSession()
            closeCastModals()
            popCastScreens()
        case .didSuspend:
            if event.suspendReason == .appBackgrounded {
                toast("Cast session suspended while the app is in the background")
            } else if event.suspendReason != .appTerminated {
                toast("Connection to the device lost; reconnecting…")
            }
        default:
            // willEnd, willResume, volume and status changes: the views read them from the
            // session; later kinds of event need nothing here either.
            break
        }
    }

    private func closeChooser() {
        if case .chooser = modal { modal = nil }
        chooser = nil
    }

    private func closeCastModals() {
        switch modal {
        case .chooser, .stopCasting, .actionSheet: modal = nil
        default: break
        }
    }

    // MARK: Switching playback (the codelab's switchToRemotePlayback / switchToLocalPlayback)

    /// Moves local playback to the device: a one-item queue at the local position, playing
    /// unless the local player was paused.
    func switchToRemotePlayback() {
        guard playbackMode != .remote else { return }
        guard let client = remoteClient else { return }
        if localPlayer.isActive, let item = localItem {
            let position = localPlayer.position(at: now)
            let paused = localPlayer.state == .paused
            var queueItem = QueueItem(media: item.mediaInformation, autoplay: !paused, startTime: position)
            queueItem.preloadTime = settings.preloadTime
            var request = LoadRequestData(
                media: item.mediaInformation,
                queueData: QueueData(repeatMode: .off, items: [queueItem]),
                autoplay: !paused,
                currentTime: position
            )
            applyCredentials(to: &request)
            report(client.load(request), failure: "Could not load \(item.title) on the device")
            lastRemoteItem = item
            localPlayer.stop(at: now)
        }
        playbackMode = .remote
    }

    /// Continues on the local player where the device was: the last known position, playing
    /// unless the device was paused or had finished.
    func switchToLocalPlayback(from client: RemoteMediaClient) {
        guard playbackMode == .remote || localItem != nil || lastRemoteItem != nil else {
            playbackMode = .local
            return
        }
        let item = catalog?.item(contentID: client.mediaStatus?.media?.contentID) ?? lastRemoteItem
        playbackMode = .local
        guard let item else { return }
        // Read from the media controller, as the codelab does; the client keeps the same values.
        let position =
            mediaController.state.isConnected ? client.lastKnownStreamPosition : mediaController.lastKnownStreamPosition
        let state = mediaController.lastKnownPlayerState ?? client.lastKnownPlayerState
        let playing = !(state == .paused || state == .idle || state == nil)
        localItem = item
        localPlayer.load(duration: item.duration, position: position, playing: playing, at: now)
        if case .detail = topScreen {
            screens[screens.count - 1] = .detail(item)
        }
    }

    // MARK: Loading on the device

    /// Sends `item` to the device.
    func loadRemote(_ item: MediaItem, mode: RemoteLoadMode) {
        guard let client = remoteClient else {
            toast("Not connected to a Cast device")
            return
        }
        var queueItem = QueueItem(media: item.mediaInformation, autoplay: true)
        queueItem.preloadTime = settings.preloadTime
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
            applyCredentials(to: &request)
            report(client.load(request), failure: "Could not load \(item.title)")
            lastRemoteItem = item
            localPlayer.stop(at: now)
            playbackMode = .remote
        // Step 9: once the device loaded it, the context presents the expanded controller
        // (`useDefaultExpandedMediaControls`); see `containerChanged(_:)`.
        case .append:
            report(
                client.queueInsertItem(queueItem, beforeItemID: MediaQueueItemID.invalid),
                failure: "Could not queue \(item.title)"
            )
            toast("Added to queue: \(item.title)")
        case .next:
            let ids = client.mediaQueue.itemIDs
            var before = MediaQueueItemID.invalid
            if let current = client.mediaStatus?.currentItemID, let index = ids.firstIndex(of: current),
                index + 1 < ids.count
            {
                before = ids[index + 1]
            }
            report(client.queueInsertItem(queueItem, beforeItemID: before), failure: "Could not queue \(item.title)")
            toast("Playing next: \(item.title)")
        }
    }

    func applyCredentials(to request: inout LoadRequestData) {
        guard credentialsEnabled else { return }
        request.credentials = AppModel.credentialsValue
        request.credentialsType = "ios"
    }

    /// Shows a toast when `request` fails.
    func report(_ request: CastRequest?, failure: String) {
        guard let request else { return }
        Task { [weak self] in
            let outcome = await request.waitForOutcome()
            guard let self else { return }
            if let error = request.error {
                self.toast("\(failure): \(error.description)", seconds: 6)
            } else if case .completed = outcome {
                return
            }
            self.terminal.requestRender()
        }
    }

    // MARK: Cast Connect credentials

    /// The "Creds" toggle: sets or clears the launch credentials and says what they are.
    func toggleCredentials() {
        credentialsEnabled.toggle()
        context.setLaunchCredentials(
            credentialsEnabled ? CredentialsData(credentials: AppModel.credentialsValue, credentialsType: "ios") : nil
        )
        toast("Credentials: \(credentialsEnabled ? AppModel.credentialsValue : "none")")
    }

    // MARK: Remote controls

    /// The mini controller's play/pause button.
    func miniTogglePlayPause() {
        container.miniController.togglePlayPause()
    }

    /// The expanded controller's play/pause button.
    func remoteTogglePlayPause() {
        report(mediaController.togglePlayPause(), failure: "Play/pause failed")
    }

    func remoteSeek(by seconds: Double) {
        let request =
            seconds >= 0 ? mediaController.skipForward(by: seconds) : mediaController.skipBackward(by: -seconds)
        report(request, failure: "Seek failed")
    }

    func remoteStop() {
        report(mediaController.stop(), failure: "Stop failed")
    }

    /// The playback-rate control: normal → double → half → normal.
    func remoteCycleRate() {
        let segment = mediaController.state.playbackRate.segment ?? .normal
        let next: PlaybackRateSegment =
            switch segment {
            case .normal: .double
            case .double: .half
            case .half: .normal
            }
        guard let request = mediaController.setPlaybackRate(next) else {
            toast("The playback rate cannot be changed now")
            return
        }
        report(request, failure: "Playback rate failed")
        toast("Playback rate: \(next.title)")
    }

    /// The repeat button: off → all → one → off.
    func remoteCycleRepeat() {
        let next = QueueNavigationState.next(after: mediaController.state.queue.repeatMode)
        guard let request = mediaController.cycleRepeatMode() else {
            flash("Repeat needs a queue of two or more items")
            return
        }
        report(request, failure: "Repeat failed")
        flash("Repeat: \(QueueNavigationState.label(for: next))")
    }

    /// Next or previous queue item.
    func remoteSkip(next: Bool) {
        let request = next ? mediaController.skipToNext() : mediaController.skipToPrevious()
        guard let request else {
            flash(next ? "There is no next item" : "There is no previous item")
            return
        }
        report(request, failure: next ? "Next failed" : "Previous failed")
    }

    /// The note shown while a session starts; withdrawn when it started or failed.
    func connectingToast(_ name: String) -> String { "Connecting to \(name)…" }

    /// The expanded controller's skip-ad button: skips the playing clip once it allows it,
    /// else says how long is left.
    func remoteSkipAd() {
        guard let ad = mediaController.state.adBreak else {
            flash("No ad is playing")
            return
        }
        guard let request = mediaController.skipAd() else {
            switch ad.skip {
            case .countdown(let seconds): flash("The ad can be skipped in \(seconds) s")
            default: flash("This ad cannot be skipped")
            }
            return
        }
        report(request, failure: "Skip ad failed")
        flash("Ad skipped")
    }

    // MARK: Volume keys

    /// `+`, `-` and `m`: while casting they go to the context, which changes the device
    /// volume (`physicalVolumeButtonsWillControlDeviceVolume`), else the local player's.
    func volumeKey(_ key: VolumeKey) {
        if let request = context.volumeKeyPressed(key) {
            report(request, failure: "Volume failed")
            if let session, let volume = session.deviceVolume, volume.controlType != .fixed {
                let muted = key == .mute ? !(volume.muted ?? false) : (volume.muted ?? false)
                let level = Int(((session.pendingDeviceVolume ?? volume.level ?? 0) * 100).rounded())
                flash(muted ? "Device muted (volume \(level)%)" : "Device volume \(level)%")
            } else {
                flash(key == .mute ? "Stream mute toggled" : "Stream volume changed (the device volume is fixed)")
            }
            return
        }
        if isConnected {
            flash("The device volume cannot be changed now")
            return
        }
        switch key {
        case .up: localVolume = min(100, localVolume + 5)
        case .down: localVolume = max(0, localVolume - 5)
        default: localMuted.toggle()
        }
        flash(localMuted ? "Local player muted" : "Local volume \(localVolume)%")
    }

    // MARK: Ctrl-Z

    /// Ctrl-Z: the app goes to the background. The context suspends the Cast session (its
    /// connection closes; the device keeps playing), the terminal goes back to the shell and
    /// the process stops; `fg` continues it, the terminal comes back and the session resumes.
    func suspendToShell() async {
        let casting = isConnected
        await context.applicationDidEnterBackground()
        terminal.suspendProcess()
        context.applicationWillEnterForeground()
        toast(casting ? "Welcome back: resuming the Cast session…" : "Welcome back")
    }

    // MARK: Track selector

    /// One row of the track selector.
    enum TrackRow: Equatable {
        case textOff
        case text(Int)
        case audio(Int)
        case style(TextTrackStylePreset)
    }

    var trackRows: [TrackRow] {
        let state = trackSelection.state
        var rows: [TrackRow] = []
        if !state.textTracks.isEmpty {
            rows.append(.textOff)
            rows += state.textTracks.map { .text($0.id) }
        }
        rows += state.audioTracks.map { .audio($0.id) }
        if !state.textTracks.isEmpty { rows += state.stylePresets.map { .style($0) } }
        return rows
    }

    /// `t` in the expanded controller: the track selector.
    func openTrackSelector() {
        let state = trackSelection.state
        guard state.hasTracks else {
            flash("This video has no audio or text tracks to choose")
            return
        }
        tracksState = ListState(count: trackRows.count)
        modal = .tracks
    }

    func handleTracks(_ event: KeyEvent) {
        let rows = trackRows
        tracksState.setCount(rows.count)
        switch event.key {
        case .escape, .character("t"):
            modal = nil
        case .enter:
            guard let index = tracksState.selection, rows.indices.contains(index) else { return }
            applyTrackRow(rows[index])
        default:
            _ = tracksState.handle(event, visibleRows: 12)
        }
    }

    private func applyTrackRow(_ row: TrackRow) {
        let state = trackSelection.state
        let request: CastRequest?
        let message: String
        switch row {
        case .textOff:
            request = trackSelection.selectTextTrack(nil)
            message = "Subtitles off"
        case .text(let id):
            request = trackSelection.selectTextTrack(id)
            message = "Subtitles: \(state.textTracks.first { $0.id == id }?.title ?? "track \(id)")"
        case .audio(let id):
            request = trackSelection.selectAudioTrack(id)
            message = "Audio: \(state.audioTracks.first { $0.id == id }?.title ?? "track \(id)")"
        case .style(let preset):
            request = trackSelection.setTextTrackStyle(preset)
            message = "Subtitle style: \(preset.name)"
        }
        guard let request else {
            flash(state.inputEnabled ? "Already selected" : "Tracks cannot be changed now")
            return
        }
        report(request, failure: "Tracks failed")
        flash(message)
    }

    /// "Stop casting" in the Cast button's dialog (the Cast dialog's button, as GCK's
    /// `endSessionAndStopCasting`): ends the session and stops the receiver app.
    func stopCasting() {
        let button = castButton
        Task { await button.stopCasting(stopReceiverApplication: true) }
    }
}
