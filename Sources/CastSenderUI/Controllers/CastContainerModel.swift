public import CastSender
import CastSync
public import Observation

/// The container that docks the mini controller under the app's screens (as
/// `GCKUICastContainerViewController`) and presents the expanded controller.
///
/// Codelab flow: after "Play now" the app sets ``miniMediaControlsItemEnabled`` to `false`
/// and calls ``presentExpandedController()``; selecting the mini controller presents it too.
/// A container made with ``init(context:)`` presents it by itself after every successful
/// LOAD of the context's sessions when `CastContext.useDefaultExpandedMediaControls` is
/// set, as GCK does.
public final class CastContainerModel: Observable, Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// Whether the app allows the mini controller.
        public var miniMediaControlsItemEnabled: Bool
        /// Whether the mini controller shows now: allowed, visible (media loaded) and the
        /// expanded controller not on screen.
        public var showsMiniController: Bool
        /// Whether the expanded controller is on screen.
        public var isExpandedControllerPresented: Bool
    }

    private struct Inner {
        var itemEnabled = true
        var expandedPresented = false
    }

    /// The mini controller.
    public let miniController: MiniControllerModel
    /// The expanded controller.
    public let expandedController: ExpandedControllerModel
    private let inner = Locked(Inner())
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the container; selecting the mini controller presents the expanded one.
    public init(miniController: MiniControllerModel, expandedController: ExpandedControllerModel) {
        self.miniController = miniController
        self.expandedController = expandedController
        let requests = miniController.expandedControllerRequests()
        let media = miniController.updates()
        tasks.run { [weak self] in
            for await _ in requests {
                guard let self else { return }
                self.presentExpandedController()
            }
        }
        tasks.run { [weak self] in
            for await _ in media {
                guard let self else { return }
                self.publish()
            }
        }
        broadcaster.bind(self, \.state)
    }

    /// Creates the container for `context` (as `createCastContainerController`): a media
    /// controller, the mini and expanded controllers with the context's image picker and
    /// cache, a device volume control, and the expanded controller presented after a load
    /// when the context uses the default expanded controls.
    public convenience init(context: CastContext) {
        let media = MediaController(context: context)
        self.init(
            miniController: MiniControllerModel(context: context, mediaController: media),
            expandedController: ExpandedControllerModel(context: context, mediaController: media)
        )
        let triggers = context.expandedMediaControlsTriggers()
        let logger = context.logger
        tasks.run { [weak self, weak context] in
            for await _ in triggers {
                guard let self, let context else { return }
                guard context.useDefaultExpandedMediaControls else { continue }
                logger.log(.info, .ui, "presenting the default expanded controls")
                self.presentExpandedController()
            }
        }
    }

    /// Creates the container and both controllers over one media controller.
    public convenience init(mediaController: MediaController, imagePicker: any ImagePicker = FirstImagePicker()) {
        self.init(
            miniController: MiniControllerModel(mediaController: mediaController, imagePicker: imagePicker),
            expandedController: ExpandedControllerModel(mediaController: mediaController, imagePicker: imagePicker)
        )
    }

    /// Whether the mini controller may show (`miniMediaControlsItemEnabled`).
    public var miniMediaControlsItemEnabled: Bool {
        get { inner.withLock { $0.itemEnabled } }
        set {
            inner.withLock { $0.itemEnabled = newValue }
            publish()
        }
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        let (itemEnabled, expanded) = inner.withLock { ($0.itemEnabled, $0.expandedPresented) }
        return State(
            miniMediaControlsItemEnabled: itemEnabled,
            showsMiniController: itemEnabled && !expanded && miniController.state.isVisible,
            isExpandedControllerPresented: expanded
        )
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Presents the expanded controller; the mini controller is hidden while it shows.
    public func presentExpandedController() {
        let changed = inner.withLock { inner -> Bool in
            defer { inner.expandedPresented = true }
            return !inner.expandedPresented
        }
        if changed { publish() }
    }

    /// The expanded controller was closed.
    public func dismissExpandedController() {
        let changed = inner.withLock { inner -> Bool in
            defer { inner.expandedPresented = false }
            return inner.expandedPresented
        }
        if changed { publish() }
    }

    private func publish() { broadcaster.publish(state) }
}
