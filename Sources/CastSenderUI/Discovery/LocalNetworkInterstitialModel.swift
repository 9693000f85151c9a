public import CastSender
import CastSync
public import Observation

/// The first-use local-network interstitial: it explains why the app scans the local network
/// and lets discovery start only after the user accepts; the answer is remembered across
/// launches in a ``CastUIStateStore``.
///
/// With the default options (``DiscoveryStartPolicy/startsOnCastButtonTap``) the Cast
/// button's first tap presents it; later launches start discovery at once. A custom device
/// picker calls ``requestDiscoveryForCustomPicker()`` before its first scan.
///
/// ```swift
/// let interstitial = LocalNetworkInterstitialModel(context: context, store: store)
/// if interstitial.castButtonTapped() { showInterstitial(interstitial.state.content) }
/// // ... the user chooses "Continue"
/// interstitial.accept()   // remembered; discovery starts
/// ```
public final class LocalNetworkInterstitialModel: Observable, Sendable {
    /// The text of the interstitial.
    public struct Content: Sendable, Hashable {
        /// The heading.
        public var title: String
        /// Why the local network is needed.
        public var message: String
        /// The button that accepts.
        public var acceptTitle: String
        /// The button that declines.
        public var declineTitle: String

        /// Creates content.
        public init(title: String, message: String, acceptTitle: String, declineTitle: String) {
            self.title = title
            self.message = message
            self.acceptTitle = acceptTitle
            self.declineTitle = declineTitle
        }

        /// The standard English text.
        public static let standard = Content(
            title: "Allow local network access",
            message: """
                To cast, this app looks for Cast devices such as TVs and speakers on your local \
                network. It uses the local network only to discover and control Cast-enabled \
                devices on your Wi-Fi network.
                """,
            acceptTitle: "Continue",
            declineTitle: "Not now"
        )
    }

    /// What a front end shows.
    public struct State: Sendable, Hashable {
        /// Whether the user accepted, now or in an earlier launch.
        public var isAccepted: Bool
        /// Whether the interstitial should be on screen.
        public var isPresented: Bool
        /// Its text.
        public var content: Content
        /// Why discovery could not start, if it failed.
        public var discoveryError: String?
    }

    private struct Inner {
        var machine: LocalNetworkInterstitialStateMachine
        var discoveryError: String?
    }

    private let inner: Locked<Inner>
    private let store: CastUIStateStore
    private let discovery: DiscoveryControl
    private let content: Content
    private let broadcaster = StateBroadcaster<State>()

    /// Creates the interstitial for `context`, remembering the answer in `store`; when it was
    /// accepted in an earlier launch and discovery waits for the Cast button, discovery
    /// starts now.
    public convenience init(context: CastContext, store: CastUIStateStore, content: Content = .standard) {
        self.init(
            policy: DiscoveryStartPolicy(context.options),
            discovery: DiscoveryControl(context.discoveryManager),
            store: store,
            content: content
        )
    }

    init(
        policy: DiscoveryStartPolicy,
        discovery: DiscoveryControl,
        store: CastUIStateStore,
        content: Content = .standard
    ) {
        self.store = store
        self.discovery = discovery
        self.content = content
        let machine = LocalNetworkInterstitialStateMachine(
            policy: policy,
            accepted: store.current.localNetworkAccepted
        )
        inner = Locked(Inner(machine: machine))
        perform(machine.launched())
        broadcaster.bind(self, \.state)
    }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return inner.withLock { inner in
            State(
                isAccepted: inner.machine.accepted,
                isPresented: inner.machine.presented,
                content: content,
                discoveryError: inner.discoveryError
            )
        }
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Call on every Cast-button tap (``CastButtonModel`` does). Returns `true` when the
    /// interstitial must be presented now; otherwise discovery was started if the policy
    /// says a tap starts it.
    @discardableResult
    public func castButtonTapped() -> Bool {
        perform(inner.withLock { $0.machine.castButtonTapped() })
    }

    /// Call before a custom device picker's scan. Returns `true` when the interstitial must
    /// be presented first (discovery then starts on ``accept()``); otherwise discovery was
    /// started.
    @discardableResult
    public func requestDiscoveryForCustomPicker() -> Bool {
        perform(inner.withLock { $0.machine.customPickerWillScan() })
    }

    /// The user accepted: remembered, and discovery starts if a tap or picker asked for it.
    public func accept() {
        // Saved with the lock held, as the introductory overlay does: whoever sees the state
        // accepted also finds it remembered.
        let action = inner.withLock { inner in
            let action = inner.machine.accept()
            store.update { $0.localNetworkAccepted = true }
            return action
        }
        perform(action)
    }

    /// The user declined: nothing starts, and the next tap asks again.
    public func decline() {
        inner.withLock { $0.machine.decline() }
        publish()
    }

    @discardableResult
    private func perform(_ action: LocalNetworkInterstitialStateMachine.Action) -> Bool {
        if action == .startDiscovery {
            var failure: String?
            do {
                try discovery.start()
            } catch {
                failure = "\(error)"
            }
            inner.withLock { $0.discoveryError = failure }
        }
        publish()
        return action == .present
    }

    private func publish() { broadcaster.publish(state) }
}
