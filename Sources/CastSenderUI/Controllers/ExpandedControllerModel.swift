import CastCore
public import CastSender
import CastSync
public import Observation

/// The full-screen expanded controller (as `GCKUIExpandedMediaControlsViewController`):
/// artwork, title, subtitle, seek bar, play/pause, ±30 s, previous/next, repeat, stop,
/// tracks, playback rate, the stream mute and the ad countdown with skip, plus the device
/// volume of the session's device. Connecting and stopping casting stay with the Cast button.
public final class ExpandedControllerModel: Observable, Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The background artwork chosen by the image picker.
        public var artworkURL: String?
        /// The artwork as fetched through the image cache and decoded; `nil` without a cache
        /// or an image (the front end then shows the title in its place).
        public var artwork: Artwork?
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
        /// Previous, next and the repeat mode.
        public var queue: QueueNavigationState
        /// The stream volume and mute, when the media reports them.
        public var streamVolume: StreamVolumeState?
        /// The device volume, when the controller has a ``DeviceVolumeController``.
        public var deviceVolume: DeviceVolumeState?
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

    /// The media controller the model shows and drives (play/pause, seek, ±30 s, queue,
    /// repeat, stop, skip ad, tracks, rate, stream mute).
    public let mediaController: MediaController
    /// The track selector over the same media controller.
    public let trackSelection: TrackSelectionModel
    /// The device volume control shown with the controls, if any.
    public let volumeController: DeviceVolumeController?
    /// Whether the seek bar hides for live streams.
    public let hidesStreamPositionControlsForLiveContent: Bool
    private let imagePicker: @Sendable () -> any ImagePicker
    private let loader: ArtworkLoader?
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the expanded controller over `mediaController`; with an `imageCache` the
    /// artwork is fetched and decoded, with a `volumeController` the device volume shows.
    public convenience init(
        mediaController: MediaController,
        imagePicker: any ImagePicker = FirstImagePicker(),
        imageCache: (any ImageCache)? = nil,
        volumeController: DeviceVolumeController? = nil,
        hidesStreamPositionControlsForLiveContent: Bool = false
    ) {
        self.init(
            mediaController: mediaController,
            imagePicker: { imagePicker },
            imageCache: imageCache.map { cache -> @Sendable () -> any ImageCache in { cache } },
            volumeController: volumeController,
            hidesStreamPositionControlsForLiveContent: hidesStreamPositionControlsForLiveContent
        )
    }

    /// Creates the expanded controller with the image picker and cache of `context` (read
    /// each time) and a device volume control for its session's device.
    public convenience init(
        context: CastContext,
        mediaController: MediaController,
        volumeController: DeviceVolumeController? = nil,
        hidesStreamPositionControlsForLiveContent: Bool = false
    ) {
        self.init(
            mediaController: mediaController,
            imagePicker: { context.imagePicker },
            imageCache: { context.imageCache },
            volumeController: volumeController ?? DeviceVolumeController(context: context),
            hidesStreamPositionControlsForLiveContent: hidesStreamPositionControlsForLiveContent
        )
    }

    init(
        mediaController: MediaController,
        imagePicker: @escaping @Sendable () -> any ImagePicker,
        imageCache: (@Sendable () -> any ImageCache)?,
        volumeController: DeviceVolumeController?,
        hidesStreamPositionControlsForLiveContent: Bool
    ) {
        self.mediaController = mediaController
        self.imagePicker = imagePicker
        self.volumeController = volumeController
        self.hidesStreamPositionControlsForLiveContent = hidesStreamPositionControlsForLiveContent
        trackSelection = TrackSelectionModel(mediaController: mediaController)
        loader = imageCache.map { ArtworkLoader(cache: $0, logger: mediaController.logger) }
        let media = mediaController.updates()
        tasks.run { [weak self] in
            for await value in media {
                guard let self else { return }
                self.broadcaster.publish(self.state(for: value))
            }
        }
        if let volume = volumeController?.updates() {
            tasks.run { [weak self] in
                for await _ in volume {
                    guard let self else { return }
                    self.broadcaster.publish(self.state)
                }
            }
        }
        loader?.onChange = { [weak self] in
            guard let self else { return }
            self.broadcaster.publish(self.state)
        }
        broadcaster.bind(self, \.state)
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return state(for: mediaController.state)
    }

    /// The state for a media control state (use with ``MediaController/updates()``).
    public func state(for media: MediaControlState) -> State {
        let url = media.metadata.flatMap { imagePicker().image(for: Self.artworkHints, from: $0)?.url }
        return State(
            artworkURL: url,
            artwork: loader?.artwork(for: url),
            title: media.title,
            subtitle: media.subtitle,
            seekBar: media.seekBar,
            showsSeekBar: !(hidesStreamPositionControlsForLiveContent && media.seekBar.isLive),
            playPause: media.playPause,
            canSkipBy30Seconds: media.canSkipBy30Seconds,
            canStop: media.canStop,
            queue: media.queue,
            streamVolume: media.streamVolume,
            deviceVolume: volumeController?.state,
            tracks: media.tracks,
            playbackRate: media.playbackRate,
            adBreak: media.adBreak,
            isMediaLoaded: media.isMediaLoaded
        )
    }

    /// Every later state: media changes, artwork loaded, device volume changes.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }
}
