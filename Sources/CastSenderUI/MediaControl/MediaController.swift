public import CastCore
public import CastSender
import CastSync
public import Observation

/// Binds the media controls to the current session's media (as `GCKUIMediaController`):
/// follows the session manager, keeps the last known position and player state after the
/// session ends (for local continuation), and turns control actions into media commands.
///
/// The stream position between statuses is extrapolated from the remote media client's
/// approximate position whenever the front end calls ``tick()`` (e.g. twice a second while
/// media plays), which also advances the skip-ad countdown.
///
/// ```swift
/// let controller = MediaController(context: context)
/// for await state in controller.updates() { redraw(state.seekBar, state.playPause) }
/// controller.togglePlayPause()
/// controller.setPlaybackRate(.double)
/// ```
public final class MediaController: Observable, Sendable {
    private struct Inner {
        var client: RemoteMediaClient?
        var state = MediaControlState.empty
        var lastKnownPlayerState: PlayerState?
        var lastKnownStreamPosition: Double = 0
    }

    private let inner = Locked(Inner())
    private let bridge: Bridge
    private let broadcaster = StateBroadcaster<MediaControlState>()
    let logger: CastLogger

    /// The step of ``skipForward(by:)`` and ``skipBackward(by:)``: 30 seconds.
    public static let skipInterval: Double = 30

    /// Creates a controller for the sessions of `context`.
    public convenience init(context: CastContext) {
        self.init(sessionManager: context.sessionManager, logger: context.logger)
    }

    /// Creates a controller for the sessions of `sessionManager`, logging user actions to
    /// `logger` (component `CastLogComponent.ui`).
    public init(sessionManager: SessionManager, logger: CastLogger = .shared) {
        self.logger = logger
        bridge = Bridge()
        bridge.controller = self
        sessionManager.add(bridge)
        if let session = sessionManager.currentSession, session.connectionState == .connected {
            attach(session.remoteMediaClient)
        }
        broadcaster.bind(self, \.state)
    }

    /// The current state.
    public var state: MediaControlState {
        broadcaster.access(self, \.state)
        return inner.withLock { $0.state }
    }

    /// Every later state.
    public func updates() -> AsyncStream<MediaControlState> { broadcaster.stream() }

    /// The last known position in seconds, kept after the session ends.
    public var lastKnownStreamPosition: Double { state.lastKnownStreamPosition }

    /// The last known player state, kept after the session ends.
    public var lastKnownPlayerState: PlayerState? { state.lastKnownPlayerState }

    /// Recomputes the extrapolated position and the ad countdown; publishes when they changed.
    public func tick() { refresh() }

    // MARK: Actions

    /// Plays when paused, pauses when playing (the toggle's ``PlayPauseToggle/action``).
    @discardableResult
    public func togglePlayPause() -> CastRequest? {
        switch state.playPause.action {
        case .play: play()
        case .pause: pause()
        case .none: nil
        }
    }

    /// Resumes playback.
    @discardableResult
    public func play() -> CastRequest? { client?.play() }

    /// Pauses playback.
    @discardableResult
    public func pause() -> CastRequest? { client?.pause() }

    /// Stops playback.
    @discardableResult
    public func stop() -> CastRequest? { client?.stop() }

    /// Seeks to `position` seconds (the seek bar).
    @discardableResult
    public func seek(to position: Double) -> CastRequest? {
        let target = clamp(position)
        return send { $0.seek(MediaSeekOptions(interval: target)) }
    }

    /// Seeks `seconds` forward (+30 s).
    @discardableResult
    public func skipForward(by seconds: Double = MediaController.skipInterval) -> CastRequest? {
        seek(to: state.seekBar.position + seconds)
    }

    /// Seeks `seconds` back (−30 s).
    @discardableResult
    public func skipBackward(by seconds: Double = MediaController.skipInterval) -> CastRequest? {
        seek(to: state.seekBar.position - seconds)
    }

    /// Skips the playing ad once it is skippable.
    @discardableResult
    public func skipAd() -> CastRequest? {
        guard state.adBreak?.canSkip == true else { return nil }
        logger.log(.debug, .ui, "skip ad")
        return client?.skipAd()
    }

    /// Activates `trackID`, replacing the active track of its kind.
    @discardableResult
    public func selectTrack(_ trackID: Int) -> CastRequest? {
        setActiveTrackIDs(state.tracks.selecting(trackID))
    }

    /// Turns `trackID` off.
    @discardableResult
    public func deselectTrack(_ trackID: Int) -> CastRequest? {
        setActiveTrackIDs(state.tracks.deselecting(trackID))
    }

    /// Sets the active tracks; empty turns every track off.
    @discardableResult
    public func setActiveTrackIDs(_ trackIDs: [Int]) -> CastRequest? {
        guard state.tracks.inputEnabled else { return nil }
        logger.log(
            .debug,
            .ui,
            "tracks chosen",
            metadata: ["cast.track-ids": trackIDs.map(String.init).joined(separator: ",")]
        )
        return client?.setActiveTrackIDs(trackIDs)
    }

    /// Sets the playback rate of a segment of the rate control.
    @discardableResult
    public func setPlaybackRate(_ segment: PlaybackRateSegment) -> CastRequest? {
        guard state.playbackRate.inputEnabled else { return nil }
        logger.log(.debug, .ui, "playback rate chosen", metadata: ["cast.rate": "\(segment.rate)"])
        return client?.setPlaybackRate(segment.rate)
    }

    /// Sets the text-track style (the track selector's style choice).
    @discardableResult
    public func setTextTrackStyle(_ style: TextTrackStyle) -> CastRequest? {
        guard state.tracks.inputEnabled else { return nil }
        logger.log(.debug, .ui, "text track style chosen")
        return client?.setTextTrackStyle(style)
    }

    // MARK: Queue

    /// Plays the next queue item (GCK's `nextButton`).
    @discardableResult
    public func skipToNext() -> CastRequest? {
        guard state.queue.canSkipToNext else { return nil }
        logger.log(.debug, .ui, "next item")
        return client?.queueNextItem()
    }

    /// Plays the previous queue item (GCK's `previousButton`).
    @discardableResult
    public func skipToPrevious() -> CastRequest? {
        guard state.queue.canSkipToPrevious else { return nil }
        logger.log(.debug, .ui, "previous item")
        return client?.queuePreviousItem()
    }

    /// Sets the queue's repeat mode.
    @discardableResult
    public func setRepeatMode(_ mode: RepeatMode) -> CastRequest? {
        guard state.queue.canChangeRepeatMode else { return nil }
        logger.log(.debug, .ui, "repeat mode chosen", metadata: ["cast.repeat-mode": mode.rawValue])
        return client?.queueSetRepeatMode(mode)
    }

    /// The repeat button (as `cycleRepeatMode`): off → all → single → off.
    @discardableResult
    public func cycleRepeatMode() -> CastRequest? {
        setRepeatMode(QueueNavigationState.next(after: state.queue.repeatMode))
    }

    // MARK: Stream volume

    /// Sets the stream volume, 0 to 1, where the media allows it.
    @discardableResult
    public func setStreamVolume(_ level: Double) -> CastRequest? {
        guard state.streamVolume?.canChangeLevel == true, level.isFinite else { return nil }
        logger.log(.debug, .ui, "stream volume chosen", metadata: ["cast.level": "\(level)"])
        return client?.setStreamVolume(min(max(level, 0), 1))
    }

    /// Mutes or unmutes the stream, where the media allows it.
    @discardableResult
    public func setStreamMuted(_ muted: Bool) -> CastRequest? {
        guard state.streamVolume?.canMute == true else { return nil }
        logger.log(.debug, .ui, "stream mute chosen", metadata: ["cast.muted": "\(muted)"])
        return client?.setStreamMuted(muted)
    }

    /// The mute toggle bound to the media (GCK's `MuteToggle` media button): mutes or
    /// unmutes the stream where the media allows it.
    @discardableResult
    public func toggleStreamMuted() -> CastRequest? {
        guard let volume = state.streamVolume else { return nil }
        return setStreamMuted(!volume.isMuted)
    }

    // MARK: Binding

    private var client: RemoteMediaClient? { inner.withLock { $0.client } }

    private func send(_ command: (RemoteMediaClient) -> CastRequest) -> CastRequest? {
        guard state.seekBar.isSeekable, let client else { return nil }
        return command(client)
    }

    private func clamp(_ position: Double) -> Double {
        let seekBar = state.seekBar
        if let range = seekBar.liveSeekableRange { return min(max(position, range.lowerBound), range.upperBound) }
        if let duration = seekBar.duration, duration > 0 { return min(max(position, 0), duration) }
        return max(position, 0)
    }

    fileprivate func attach(_ client: RemoteMediaClient) {
        inner.withLock { $0.client = client }
        client.add(bridge)
        client.mediaQueue.add(bridge)
        refresh()
    }

    fileprivate func sessionEnded(_ session: CastSession) {
        let client = session.remoteMediaClient
        client.remove(bridge)
        client.mediaQueue.remove(bridge)
        inner.withLock { inner in
            guard inner.client === client else { return }
            inner.client = nil
            inner.lastKnownPlayerState = client.lastKnownPlayerState ?? inner.lastKnownPlayerState
            inner.lastKnownStreamPosition = client.lastKnownStreamPosition
        }
        refresh()
    }

    fileprivate func refresh() {
        let client = self.client
        var inputs = client.map(MediaControlInputs.init(client:)) ?? MediaControlInputs()
        let changed = inner.withLock { inner -> Bool in
            if let client {
                inner.lastKnownPlayerState = client.lastKnownPlayerState ?? inner.lastKnownPlayerState
                inner.lastKnownStreamPosition =
                    inputs.status == nil ? client.lastKnownStreamPosition : inputs.position
            }
            inputs.lastKnownPlayerState = inner.lastKnownPlayerState
            inputs.lastKnownStreamPosition = inner.lastKnownStreamPosition
            let next = MediaControlState(inputs)
            defer { inner.state = next }
            return next != inner.state
        }
        if changed { broadcaster.publish(state) }
    }
}

/// Hears the session manager and the remote media client for a ``MediaController`` without
/// keeping it alive.
private final class Bridge: SessionManagerListener, RemoteMediaClientListener, MediaQueueListener,
    @unchecked Sendable
{
    // Set once in MediaController.init before the bridge is registered anywhere.
    weak var controller: MediaController?

    func sessionManager(_ manager: SessionManager, didStart session: CastSession) {
        controller?.attach(session.remoteMediaClient)
    }

    func sessionManager(_ manager: SessionManager, didResume session: CastSession) {
        controller?.attach(session.remoteMediaClient)
    }

    func sessionManager(_ manager: SessionManager, didEnd session: CastSession, withError error: CastError?) {
        controller?.sessionEnded(session)
    }

    func sessionManager(_ manager: SessionManager, didFailToResume session: CastSession, withError error: CastError) {
        controller?.sessionEnded(session)
    }

    func sessionManager(_ manager: SessionManager, didSuspend session: CastSession, with reason: SessionSuspendReason) {
        controller?.refresh()
    }

    func remoteMediaClient(_ client: RemoteMediaClient, didUpdate mediaStatus: MediaStatus?) {
        controller?.refresh()
    }

    func mediaQueueDidReloadItems(_ queue: MediaQueue) { controller?.refresh() }
    func mediaQueue(_ queue: MediaQueue, didInsertItemsAt indexes: [Int]) { controller?.refresh() }
    func mediaQueue(_ queue: MediaQueue, didRemoveItemsAt indexes: [Int]) { controller?.refresh() }
}

extension MediaControlInputs {
    /// What the remote media client knows now: its (already range-checked) status, the
    /// extrapolated position and live range, and the queue's item ids.
    init(client: RemoteMediaClient) {
        isConnected = client.isConnected
        status = client.mediaStatus
        position = client.approximateStreamPosition
        sinceStatus = client.timeSinceLastMediaStatusUpdate ?? 0
        liveSeekableRange = client.approximateLiveSeekableRange.map { $0.start...$0.end }
        queueItemIDs = client.mediaQueue.itemIDs
    }
}
