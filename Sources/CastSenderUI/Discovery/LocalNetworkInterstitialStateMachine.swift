/// The once-logic of the local-network interstitial: whether to present it, and when
/// discovery may start. Time-free; the owner persists ``accepted`` and starts discovery.
struct LocalNetworkInterstitialStateMachine: Sendable, Hashable {
    enum Action: Sendable, Hashable {
        /// Nothing to do.
        case none
        /// Present the interstitial.
        case present
        /// Start discovery now.
        case startDiscovery
    }

    let policy: DiscoveryStartPolicy
    /// Whether the user accepted, in this launch or an earlier one.
    private(set) var accepted: Bool
    /// Whether the interstitial is on screen.
    private(set) var presented = false
    /// Whether accepting should start discovery (a tap or a custom picker asked for it).
    private var startAfterAccepting = false

    init(policy: DiscoveryStartPolicy, accepted: Bool) {
        self.policy = policy
        self.accepted = accepted
    }

    /// The app launched: once accepted, discovery that waits for the button starts at once.
    func launched() -> Action {
        accepted && policy.startsOnCastButtonTap ? .startDiscovery : .none
    }

    /// The Cast button was tapped.
    mutating func castButtonTapped() -> Action {
        guard policy.startsOnCastButtonTap else { return .none }
        return requestScan()
    }

    /// A custom device picker is about to scan: it starts discovery itself, after the
    /// interstitial the first time.
    mutating func customPickerWillScan() -> Action {
        requestScan()
    }

    /// The user accepted.
    mutating func accept() -> Action {
        let start = startAfterAccepting
        accepted = true
        presented = false
        startAfterAccepting = false
        return start ? .startDiscovery : .none
    }

    /// The user declined; the next tap asks again.
    mutating func decline() {
        presented = false
        startAfterAccepting = false
    }

    private mutating func requestScan() -> Action {
        if accepted { return .startDiscovery }
        startAfterAccepting = true
        presented = true
        return .present
    }
}
