import CastCore
public import CastSender
import CastSync
public import Observation

/// The mini controller docked under every screen (as
/// `GCKUIMiniMediaControlsViewController`): visible only while media is loaded and the
/// controller is enabled; shows the thumbnail, title, subtitle, progress and play/pause;
/// selecting it asks for the expanded controller.
public final class MiniControllerModel: Observable, Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// Whether the app enabled the mini controller.
        public var isEnabled: Bool
        /// Whether it shows: enabled and media loaded.
        public var isVisible: Bool
        /// The title.
        public var title: String?
        /// The line under the title.
        public var subtitle: String?
        /// The thumbnail chosen by the image picker.
        public var thumbnailURL: String?
        /// The thumbnail as fetched through the image cache and decoded; `nil` without a
        /// cache or an image.
        public var thumbnail: Artwork?
        /// The progress, 0 to 1, when the duration is known.
        public var progress: Double?
        /// The play/pause toggle.
        public var playPause: PlayPauseToggle
        /// The ad break in progress, if any.
        public var adBreak: AdBreakState?
    }

    /// The hints for the thumbnail.
    public static let thumbnailHints = ImageHints(
        use: .miniController,
        preferredSize: ImageSize(width: 96, height: 96)
    )

    /// The media controller the model shows.
    public let mediaController: MediaController
    private let enabled: Locked<Bool>
    private let imagePicker: @Sendable () -> any ImagePicker
    private let loader: ArtworkLoader?
    private let selections = StateBroadcaster<Void>()
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the mini controller over `mediaController`; with an `imageCache`, the
    /// thumbnail is fetched through it and decoded (``State/thumbnail``).
    public convenience init(
        mediaController: MediaController,
        imagePicker: any ImagePicker = FirstImagePicker(),
        imageCache: (any ImageCache)? = nil,
        isEnabled: Bool = true
    ) {
        self.init(
            mediaController: mediaController,
            imagePicker: { imagePicker },
            imageCache: imageCache.map { cache -> @Sendable () -> any ImageCache in { cache } },
            isEnabled: isEnabled
        )
    }

    /// Creates the mini controller with the image picker and cache of `context` (read each
    /// time, so changing them on the context takes effect).
    public convenience init(context: CastContext, mediaController: MediaController, isEnabled: Bool = true) {
        self.init(
            mediaController: mediaController,
            imagePicker: { context.imagePicker },
            imageCache: { context.imageCache },
            isEnabled: isEnabled
        )
    }

    init(
        mediaController: MediaController,
        imagePicker: @escaping @Sendable () -> any ImagePicker,
        imageCache: (@Sendable () -> any ImageCache)?,
        isEnabled: Bool
    ) {
        self.mediaController = mediaController
        self.imagePicker = imagePicker
        loader = imageCache.map { ArtworkLoader(cache: $0, logger: mediaController.logger) }
        enabled = Locked(isEnabled)
        let media = mediaController.updates()
        tasks.run { [weak self] in
            for await value in media {
                guard let self else { return }
                self.broadcaster.publish(self.state(for: value))
            }
        }
        loader?.onChange = { [weak self] in
            guard let self else { return }
            self.broadcaster.publish(self.state)
        }
        broadcaster.bind(self, \.state)
    }

    /// Whether the mini controller is enabled; changing it publishes a new state.
    public var isEnabled: Bool {
        get { enabled.withLock { $0 } }
        set {
            enabled.withLock { $0 = newValue }
            broadcaster.publish(state)
        }
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return state(for: mediaController.state)
    }

    /// The state for a media control state (use with ``MediaController/updates()``).
    public func state(for media: MediaControlState) -> State {
        let isEnabled = self.isEnabled
        let url = media.metadata.flatMap { imagePicker().image(for: Self.thumbnailHints, from: $0)?.url }
        return State(
            isEnabled: isEnabled,
            isVisible: isEnabled && media.isMediaLoaded,
            title: media.title,
            subtitle: media.subtitle,
            thumbnailURL: url,
            thumbnail: loader?.artwork(for: url),
            progress: media.seekBar.progress,
            playPause: media.playPause,
            adBreak: media.adBreak
        )
    }

    /// Every later state: media changes and enabling or disabling.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// The play/pause button.
    @discardableResult
    public func togglePlayPause() -> Bool { mediaController.togglePlayPause() != nil }

    /// The user selected the mini controller: returns `true` (and tells
    /// ``expandedControllerRequests()``) when the expanded controller should be presented.
    @discardableResult
    public func select() -> Bool {
        guard state.isVisible else { return false }
        selections.publish(())
        return true
    }

    /// A stream that yields each time selecting the mini controller asks for the expanded controller.
    public func expandedControllerRequests() -> AsyncStream<Void> { selections.stream() }
}
