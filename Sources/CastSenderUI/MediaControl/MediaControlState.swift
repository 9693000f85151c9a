public import CastCore

/// Everything the media controls show, computed from the current media status (as
/// `GCKUIMediaController`'s bound views): the widgets' single source of truth.
public struct MediaControlState: Sendable, Hashable {
    /// Whether the session is connected to the receiver app.
    public var isConnected: Bool
    /// Whether media is loaded (a media session whose player is not idle).
    public var isMediaLoaded: Bool
    /// Whether the queue has a current item.
    public var hasCurrentQueueItem: Bool
    /// The player state, `nil` without a media session.
    public var playerState: PlayerState?
    /// Why the player is idle, if it is.
    public var idleReason: IdleReason?
    /// The last known player state; kept after the session ends for local continuation.
    public var lastKnownPlayerState: PlayerState?
    /// The last known position in seconds; kept after the session ends.
    public var lastKnownStreamPosition: Double
    /// The metadata of the media.
    public var metadata: MediaMetadata?
    /// The play/pause toggle.
    public var playPause: PlayPauseToggle
    /// The seek bar.
    public var seekBar: SeekBarState
    /// Whether ±30 s can be used.
    public var canSkipBy30Seconds: Bool
    /// Whether stop can be used.
    public var canStop: Bool
    /// The ad break in progress, if any.
    public var adBreak: AdBreakState?
    /// The tracks.
    public var tracks: TrackSelectionState
    /// The playback-rate controller.
    public var playbackRate: PlaybackRateControllerState
    /// Next, previous and the repeat mode.
    public var queue: QueueNavigationState
    /// The stream volume, when the media reports one.
    public var streamVolume: StreamVolumeState?

    /// The title of the media.
    public var title: String? { metadata?.title }
    /// The line under the title (subtitle, studio, series or artist).
    public var subtitle: String? { metadata?.displaySubtitle }

    /// The state with no session and nothing known.
    public static let empty = MediaControlState(MediaControlInputs())
}

/// What the media control state is computed from; read from the remote media client.
struct MediaControlInputs: Sendable, Hashable {
    var isConnected = false
    var status: MediaStatus?
    /// The extrapolated position.
    var position: Double = 0
    /// Seconds since the status arrived.
    var sinceStatus: Double = 0
    var liveSeekableRange: ClosedRange<Double>?
    var lastKnownPlayerState: PlayerState?
    var lastKnownStreamPosition: Double = 0
    /// The queue's item ids as the remote media client's queue cache knows them.
    var queueItemIDs: [Int] = []
}

extension MediaControlState {
    init(_ inputs: MediaControlInputs) {
        let status = inputs.status
        let media = status?.media
        let playerState = status?.playerState
        let commands = status?.supportedMediaCommands
        let loaded = status != nil && media != nil && playerState != nil && playerState != .idle
        // Pause and seek are basic commands: assumed when a receiver does not say; the
        // optional ones (tracks, rate, skip ad) only when advertised.
        let allows = { (command: MediaCommands, basic: Bool) -> Bool in
            guard let commands else { return basic }
            return commands.contains(command)
        }

        isConnected = inputs.isConnected
        isMediaLoaded = loaded
        hasCurrentQueueItem = status?.currentItemID != nil
        self.playerState = playerState
        idleReason = status?.idleReason
        lastKnownPlayerState = playerState ?? inputs.lastKnownPlayerState
        lastKnownStreamPosition = status == nil ? inputs.lastKnownStreamPosition : inputs.position
        metadata = media?.metadata

        adBreak = Self.adBreak(status: status, media: media, sinceStatus: inputs.sinceStatus, allows: allows)
        let controllable = loaded && inputs.isConnected

        let action: PlayPauseToggle.Action =
            switch playerState {
            case _ where !loaded: .none
            case .paused?: .play
            default: .pause
            }
        playPause = PlayPauseToggle(action: action, inputEnabled: controllable && allows(.pause, true))

        let isLive = media?.streamType == .live
        let duration = isLive ? inputs.liveSeekableRange?.upperBound : media?.duration
        let seekable =
            controllable && adBreak == nil && allows(.seek, true)
            && (isLive ? inputs.liveSeekableRange != nil : (duration ?? 0) > 0)
        seekBar = SeekBarState(
            position: status == nil ? inputs.lastKnownStreamPosition : inputs.position,
            duration: duration,
            isLive: isLive,
            liveSeekableRange: inputs.liveSeekableRange,
            isSeekable: seekable
        )
        canSkipBy30Seconds = seekable
        canStop = controllable
        tracks = TrackSelectionState(
            tracks: media?.tracks ?? [],
            activeTrackIDs: status?.activeTrackIDs ?? [],
            inputEnabled: controllable && allows(.editTracks, false),
            textTrackStyle: media?.textTrackStyle
        )
        playbackRate = PlaybackRateControllerState(
            rate: status.map { $0.playbackRate ?? 1 },
            inputEnabled: status != nil && inputs.isConnected && allows(.playbackRate, false)
        )
        queue = Self.queue(status: status, inputs: inputs, controllable: controllable, commands: commands)
        streamVolume = status.flatMap { status in
            guard let volume = status.volume else { return nil }
            return StreamVolumeState(
                level: volume.level.flatMap { $0.isFinite ? min(max($0, 0), 1) : nil } ?? 1,
                isMuted: volume.muted ?? false,
                canChangeLevel: controllable && allows(.streamVolume, false),
                canMute: controllable && allows(.streamMute, false)
            )
        }
    }

    private static func queue(
        status: MediaStatus?,
        inputs: MediaControlInputs,
        controllable: Bool,
        commands: MediaCommands?
    ) -> QueueNavigationState {
        let ids = inputs.queueItemIDs.isEmpty ? (status?.items ?? []).compactMap(\.itemID) : inputs.queueItemIDs
        let index = status?.currentItemID.flatMap { ids.firstIndex(of: $0) }
        let repeats = status?.repeatMode == .all || status?.repeatMode == .allAndShuffle
        let hasNext: Bool
        let hasPrevious: Bool
        if let commands {
            hasNext = commands.contains(.queueNext)
            hasPrevious = commands.contains(.queuePrevious)
        } else if let index {
            hasNext = index + 1 < ids.count || (repeats && ids.count > 1)
            hasPrevious = index > 0 || (repeats && ids.count > 1)
        } else {
            hasNext = false
            hasPrevious = false
        }
        let canRepeat = commands.map { !$0.isDisjoint(with: .queueRepeat) } ?? (ids.count > 1)
        return QueueNavigationState(
            canSkipToNext: controllable && hasNext,
            canSkipToPrevious: controllable && hasPrevious,
            repeatMode: status.map { $0.repeatMode ?? .off },
            canChangeRepeatMode: controllable && canRepeat
        )
    }

    private static func adBreak(
        status: MediaStatus?,
        media: MediaInformation?,
        sinceStatus: Double,
        allows: (MediaCommands, Bool) -> Bool
    ) -> AdBreakState? {
        guard let breakStatus = status?.breakStatus, breakStatus.breakID != nil || breakStatus.breakClipID != nil
        else { return nil }
        let clip = media?.breakClips?.first { $0.id == breakStatus.breakClipID }
        let running = status?.playerState == .playing
        var clipTime = (breakStatus.currentBreakClipTime ?? 0) + (running ? max(0, sinceStatus) : 0)
        if let duration = clip?.duration, duration > 0 { clipTime = min(clipTime, duration) }
        let whenSkippable = breakStatus.whenSkippable ?? clip?.whenSkippable
        let skip: AdBreakState.Skip
        // The countdown runs from the clip's `whenSkippable`; the skip itself waits for the
        // receiver to offer SKIP_AD, which receivers add to `supportedMediaCommands` only
        // once the clip can be skipped.
        if let whenSkippable, whenSkippable >= 0, whenSkippable - clipTime > 0 {
            // Saturating: the status's times are range-checked, but a countdown is never
            // worth a trapping conversion.
            let remaining = whenSkippable - clipTime
            skip = .countdown(seconds: WireNumber.clampedInteger(remaining.rounded(.up), in: 1...Int(Int32.max)))
        } else if let whenSkippable, whenSkippable >= 0, allows(.skipAd, false) {
            skip = .available
        } else {
            skip = .notSkippable
        }
        return AdBreakState(
            breakID: breakStatus.breakID,
            clipID: breakStatus.breakClipID,
            clipTitle: clip?.title,
            clipTime: clipTime,
            clipDuration: clip?.duration,
            skip: skip
        )
    }
}
