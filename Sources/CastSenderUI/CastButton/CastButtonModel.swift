import CastCore
import CastSender
import CastSync

/// The Cast button (as `GCKUICastButton`), independent of any toolkit: always shown, its
/// state follows the context's ``CastState``, and a tap tells the front end what to present.
///
/// ```swift
/// let button = CastButtonModel(context: context, interstitial: interstitial)
/// for await state in button.updates() { redraw(state) }
/// switch button.tap() {
/// case .presentLocalNetworkInterstitial: ...
/// case .presentDeviceChooser: ...
/// case .presentStopCastingDialog(let dialog): ...   // then `await button.stopCasting()`
/// }
/// ```
public final class CastButtonModel: Sendable {
    /// What a front end draws.
    public struct State: Sendable, Hashable {
        /// The icon state.
        public var buttonState: CastButtonState
        /// Always `true`: the Cast button is always shown, even with no device.
        public var isVisible: Bool
        /// The label for screen readers in the current state.
        public var accessibilityLabel: String
    }

    private let machine: Locked<CastButtonStateMachine>
    private let interstitial: LocalNetworkInterstitialModel?
    private let tapped: @Sendable () -> Void
    private let currentDialog: @Sendable () -> StopCastingDialog?
    private let endSession: @Sendable (_ stopReceiver: Bool?) async -> Void
    private let broadcaster = StateBroadcaster<State>()
    private let tasks = OwnedTasks()

    /// Creates the button for `context`.
    /// - Parameters:
    ///   - context: the Cast context whose state the button follows.
    ///   - interstitial: the first-use interstitial; when given, taps go through it (and
    ///     start discovery once it is accepted); without it, taps go to
    ///     ``DiscoveryManager/castButtonTapped()``.
    public convenience init(context: CastContext, interstitial: LocalNetworkInterstitialModel? = nil) {
        let sessionManager = context.sessionManager
        self.init(
            castStates: context.castStateChanges(),
            currentCastState: { context.castState },
            interstitial: interstitial,
            tapped: { context.discoveryManager.castButtonTapped() },
            currentDialog: { sessionManager.currentSession.map(StopCastingDialog.init(session:)) },
            endSession: { stop in await sessionManager.endSession(stopCasting: stop) }
        )
    }

    init(
        castStates: AsyncStream<CastState>,
        currentCastState: () -> CastState,
        interstitial: LocalNetworkInterstitialModel?,
        tapped: @escaping @Sendable () -> Void = {},
        currentDialog: @escaping @Sendable () -> StopCastingDialog?,
        endSession: @escaping @Sendable (Bool?) async -> Void
    ) {
        machine = Locked(CastButtonStateMachine(castState: currentCastState()))
        self.interstitial = interstitial
        self.tapped = tapped
        self.currentDialog = currentDialog
        self.endSession = endSession
        tasks.run { [weak self] in
            for await castState in castStates {
                guard let self else { return }
                self.castStateChanged(castState)
            }
        }
    }

    /// The current state.
    public var state: State {
        machine.withLock { machine in
            State(
                buttonState: machine.buttonState,
                isVisible: true,
                accessibilityLabel: machine.accessibilityLabel(for: machine.buttonState)
            )
        }
    }

    /// Every later state.
    public func updates() -> AsyncStream<State> { broadcaster.stream() }

    /// Sets the accessibility label for one state; `nil` restores the default.
    public func setAccessibilityLabel(_ label: String?, for buttonState: CastButtonState) {
        machine.withLock { $0.setAccessibilityLabel(label, for: buttonState) }
        broadcaster.publish(state)
    }

    /// The button was tapped: returns what to present. Goes through the interstitial, which
    /// starts discovery on the first tap once accepted.
    @discardableResult
    public func tap() -> CastButtonAction {
        let connected = machine.withLock { $0.buttonState == .connected }
        let dialog = connected ? currentDialog() : nil
        var needsInterstitial = false
        if dialog == nil {
            if let interstitial {
                needsInterstitial = interstitial.castButtonTapped()
            } else {
                tapped()
            }
        }
        return machine.withLock { $0.tapped(connectedDialog: dialog, needsInterstitial: needsInterstitial) }
    }

    /// "Stop casting" in the stop-casting dialog: ends the session; the receiver app stops
    /// when `stopReceiverApplication` is set (default: the context's option).
    public func stopCasting(stopReceiverApplication: Bool? = nil) async {
        await endSession(stopReceiverApplication)
    }

    func castStateChanged(_ castState: CastState) {
        let changed = machine.withLock { $0.castStateChanged(castState) }
        if changed { broadcaster.publish(state) }
    }
}

extension StopCastingDialog {
    /// The dialog for `session`: its device and the media it plays.
    init(session: CastSession) {
        let metadata = session.remoteMediaClient.mediaStatus?.media?.metadata
        self.init(
            deviceName: session.device.friendlyName ?? session.host,
            mediaTitle: metadata?.title,
            mediaSubtitle: metadata?.displaySubtitle
        )
    }
}
