import CastCore

/// The full-screen expanded controller (as `GCKUIExpandedMediaControlsViewController`):
/// artwork, title, subtitle, seek bar, play/pause, ±30 s, stop, tracks, playback rate and
/// the ad countdown with skip. It offers no volume and no session lifecycle (connect, stop
/// casting): the Cast button does that.
public final class ExpandedControllerModel: Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The background artwork chosen by the image picker.
        public var artworkURL: String?
        /// The title.
        public var title: String?
        /// The line under the title.
        public var subtitle: String?
        /// The seek bar; hidden for live content when ``hidesStreamPositionControlsForLiveContent``.
        public var seekBar: SeekBarState
        /// Whether the seek bar shows.
        public var showsSeekBar: Bool
        /// The play/pause toggle.
        public var playPause: PlayPauseToggle
        /// Whether ±30 s can be used.
        public var canSkipBy30Seconds: Bool
        /// Whether stop can be used.
        public var canStop: Bool
        /// The tracks.
        public var tracks: TrackSelectionState
        /// The playback rate.
        public var playbackRate: PlaybackRateControllerState
        /// The ad break in progress with its skip countdown.
        public var adBreak: AdBreakState?
        /// Whether media is loaded; the front end may close the controller when it is not.
        public var isMediaLoaded: Bool
    }

    /// The hints for the background artwork.
    public static let artworkHints = ImageHints(
        use: .expandedBackground,
        preferredSize: ImageSize(width: 1280, height: 720)
    )

    /// The media controller the model shows and drives (play/pause, seek, ±30 s, stop,
    /// skip ad, tracks, rate).
    public let mediaController: MediaController
    /// Whether the seek bar hides for live streams.
    public let hidesStreamPositionControlsForLiveContent: Bool
    private let imagePicker: any ImagePicker

    /// Creates the expanded controller over `mediaController`.
    public init(
        mediaController: MediaController,
        imagePicker: any ImagePicker = FirstImagePicker(),
        hidesStreamPositionControlsForLiveContent: Bool = false
    ) {
        self.mediaController = mediaController
        self.imagePicker = imagePicker
        self.hidesStreamPositionControlsForLiveContent = hidesStreamPositionControlsForLiveContent
    }

    /// The current state.
    public var state: State { state(for: mediaController.state) }

    /// The state for a media control state (use with ``MediaController/updates()``).
    public func state(for media: MediaControlState) -> State {
        State(
            artworkURL: media.metadata.flatMap { imagePicker.image(for: Self.artworkHints, from: $0)?.url },
            title: media.title,
            subtitle: media.subtitle,
            seekBar: media.seekBar,
            showsSeekBar: !(hidesStreamPositionControlsForLiveContent && media.seekBar.isLive),
            playPause: media.playPause,
            canSkipBy30Seconds: media.canSkipBy30Seconds,
            canStop: media.canStop,
            tracks: media.tracks,
            playbackRate: media.playbackRate,
            adBreak: media.adBreak,
            isMediaLoaded: media.isMediaLoaded
        )
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> {
        let media = mediaController.updates()
        return AsyncStream { continuation in
            let task = Task { [weak self] in
                for await value in media {
                    guard let self else { break }
                    continuation.yield(self.state(for: value))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
