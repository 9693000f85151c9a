public import CastSender
import CastSync
public import Observation

/// The introductory overlay (as `presentCastInstructionsViewControllerOnce`): shown once,
/// highlighting the Cast button, when the cast state first becomes anything but
/// `CastState.noDevicesAvailable`; remembered across launches in a ``CastUIStateStore``.
///
/// ```swift
/// let overlay = IntroductoryOverlayModel(context: context, store: store)
/// for await state in overlay.updates() where state.overlay != nil { showOverlay(state.overlay!) }
/// overlay.dismiss()
/// ```
public final class IntroductoryOverlayModel: Observable, Sendable {
    /// What the overlay highlights.
    public enum Highlight: Sendable, Hashable {
        /// The Cast button.
        case castButton
    }

    /// The overlay's text.
    public struct Overlay: Sendable, Hashable {
        /// The element to highlight.
        public var highlight: Highlight
        /// The heading.
        public var title: String
        /// The explanation.
        public var message: String
        /// The button that closes it.
        public var dismissTitle: String

        /// Creates an overlay.
        public init(highlight: Highlight = .castButton, title: String, message: String, dismissTitle: String) {
            self.highlight = highlight
            self.title = title
            self.message = message
            self.dismissTitle = dismissTitle
        }

        /// The standard English text.
        public static let standard = Overlay(
            title: "Touch to cast media to your TV and speakers",
            message: "The Cast button shows when a Cast device is available on your network.",
            dismissTitle: "Got it"
        )
    }

    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The overlay to show now, or `nil`.
        public var overlay: Overlay?
        /// Whether it was ever shown (in this launch or an earlier one).
        public var wasShown: Bool
    }

    private let machine: Locked<IntroductoryOverlayStateMachine>
    private let store: CastUIStateStore
    private let overlay: Overlay
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the overlay for `context`, remembering in `store` that it was shown.
    public convenience init(context: CastContext, store: CastUIStateStore, overlay: Overlay = .standard) {
        self.init(
            castStates: context.castStateChanges(),
            currentCastState: { context.castState },
            store: store,
            overlay: overlay
        )
    }

    init(
        castStates: AsyncStream<CastState>,
        currentCastState: () -> CastState,
        store: CastUIStateStore,
        overlay: Overlay = .standard
    ) {
        self.store = store
        self.overlay = overlay
        machine = Locked(IntroductoryOverlayStateMachine(shown: store.current.instructionsShown))
        castStateChanged(currentCastState())
        tasks.run { [weak self] in
            for await castState in castStates {
                guard let self else { return }
                self.castStateChanged(castState)
            }
        }
        broadcaster.bind(self, \.state)
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return machine.withLock { State(overlay: $0.presented ? overlay : nil, wasShown: $0.shown) }
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Presents the overlay now unless it was shown before; returns whether it is presented.
    @discardableResult
    public func presentOnce() -> Bool {
        let presented = machine.withLock { machine in
            guard machine.presentOnce() else { return false }
            rememberShown()
            return true
        }
        if presented { broadcaster.publish(state) }
        return presented
    }

    /// The user closed the overlay.
    public func dismiss() {
        machine.withLock { $0.dismiss() }
        broadcaster.publish(state)
    }

    /// Forgets that the overlay was shown, so that it shows again (as
    /// `clearCastInstructionsShownFlag`).
    public func clearInstructionsShownFlag() {
        machine.withLock { machine in
            machine.clearShownFlag()
            store.update { $0.instructionsShown = false }
        }
        broadcaster.publish(state)
    }

    func castStateChanged(_ castState: CastState) {
        let presented = machine.withLock { machine in
            guard machine.castStateChanged(castState) else { return false }
            rememberShown()
            return true
        }
        if presented { broadcaster.publish(state) }
    }

    /// Saves that the overlay was shown. Called with the machine's lock held, so that the store
    /// and the state agree whenever anyone can look: a reader that sees the overlay presented
    /// (a new model on the same store, a new launch) also finds it remembered, and is never
    /// shown it a second time.
    private func rememberShown() {
        store.update { $0.instructionsShown = true }
    }
}
