import CastSync

/// The container that docks the mini controller under the app's screens (as
/// `GCKUICastContainerViewController`) and presents the expanded controller.
///
/// Codelab flow: after "Play now" the app sets ``miniMediaControlsItemEnabled`` to `false`
/// and calls ``presentExpandedController()``; selecting the mini controller presents it too.
public final class CastContainerModel: Sendable {
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
        let (itemEnabled, expanded) = inner.withLock { ($0.itemEnabled, $0.expandedPresented) }
        return State(
            miniMediaControlsItemEnabled: itemEnabled,
            showsMiniController: itemEnabled && !expanded && miniController.state.isVisible,
            isExpandedControllerPresented: expanded
        )
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Presents the expanded controller.
    public func presentExpandedController() {
        inner.withLock { $0.expandedPresented = true }
        publish()
    }

    /// The expanded controller was closed.
    public func dismissExpandedController() {
        inner.withLock { $0.expandedPresented = false }
        publish()
    }

    private func publish() { broadcaster.publish(state) }
}
