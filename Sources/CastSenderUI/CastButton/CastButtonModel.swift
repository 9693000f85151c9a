import CastCore
public import CastSender
import CastSync
public import Observation

/// The Cast button (as `GCKUICastButton`), independent of any toolkit: always shown, its
/// state follows the context's `CastState`, and a tap tells the front end what to present.
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
public final class CastButtonModel: Observable, Sendable {
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
    private let dialogBroadcaster = StateBroadcaster<StopCastingDialog?>()
    private let tasks = OwnedTasks()
    private let loader: ArtworkLoader?
    private let logger: CastLogger
    /// The volume control of the stop-casting dialog, for the session's device; `nil` for a
    /// button made without a context.
    public let volumeController: DeviceVolumeController?

    /// Creates the button for `context`.
    /// - Parameters:
    ///   - context: the Cast context whose state the button follows.
    ///   - interstitial: the first-use interstitial; when given, taps go through it (and
    ///     start discovery once it is accepted); without it, taps go to
    ///     `DiscoveryManager.castButtonTapped()`.
    public convenience init(context: CastContext, interstitial: LocalNetworkInterstitialModel? = nil) {
        let sessionManager = context.sessionManager
        let volume = DeviceVolumeController(context: context)
        let loader = ArtworkLoader(cache: { context.imageCache }, logger: context.logger)
        self.init(
            castStates: context.castStateChanges(),
            currentCastState: { context.castState },
            interstitial: interstitial,
            tapped: { context.discoveryManager.castButtonTapped() },
            currentDialog: {
                sessionManager.currentSession.map { session in
                    var dialog = StopCastingDialog(session: session, imagePicker: context.imagePicker)
                    dialog.artwork = loader.artwork(for: dialog.artworkURL)
                    dialog.deviceVolume = volume.state
                    return dialog
                }
            },
            endSession: { stop in await sessionManager.endSession(stopCasting: stop) },
            volumeController: volume,
            loader: loader,
            logger: context.logger
        )
    }

    init(
        castStates: AsyncStream<CastState>,
        currentCastState: () -> CastState,
        interstitial: LocalNetworkInterstitialModel?,
        tapped: @escaping @Sendable () -> Void = {},
        currentDialog: @escaping @Sendable () -> StopCastingDialog?,
        endSession: @escaping @Sendable (Bool?) async -> Void,
        volumeController: DeviceVolumeController? = nil,
        loader: ArtworkLoader? = nil,
        logger: CastLogger = .shared
    ) {
        machine = Locked(CastButtonStateMachine(castState: currentCastState()))
        self.interstitial = interstitial
        self.tapped = tapped
        self.currentDialog = currentDialog
        self.endSession = endSession
        self.volumeController = volumeController
        self.loader = loader
        self.logger = logger
        tasks.run { [weak self] in
            for await castState in castStates {
                guard let self else { return }
                self.castStateChanged(castState)
            }
        }
        if let volume = volumeController?.updates() {
            tasks.run { [weak self] in
                for await _ in volume {
                    guard let self else { return }
                    self.dialogBroadcaster.publish(self.stopCastingDialog)
                }
            }
        }
        loader?.onChange = { [weak self] in
            guard let self else { return }
            self.dialogBroadcaster.publish(self.stopCastingDialog)
        }
        broadcaster.bind(self, \.state)
    }

    /// The stop-casting dialog for the current session as it is now (its image and the
    /// device volume change while it shows), or `nil` without a session.
    public var stopCastingDialog: StopCastingDialog? { currentDialog() }

    /// Every later ``stopCastingDialog``: the image loaded, the device volume changed.
    public func stopCastingDialogUpdates() -> AsyncStream<StopCastingDialog?> { dialogBroadcaster.stream() }

    /// The current state.
    public var state: State {
        broadcaster.access(self, \.state)
        return machine.withLock { machine in
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
        logger.log(.debug, .ui, "Cast button tapped", metadata: ["cast.button-state": "\(state.buttonState)"])
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
    ///
    /// Cancellation does not interrupt ending (as `SessionManager.endSession(stopCasting:)`).
    public func stopCasting(stopReceiverApplication: Bool? = nil) async {
        logger.log(.info, .ui, "stop casting chosen")
        await endSession(stopReceiverApplication)
    }

    func castStateChanged(_ castState: CastState) {
        let changed = machine.withLock { $0.castStateChanged(castState) }
        if changed { broadcaster.publish(state) }
    }
}

extension StopCastingDialog {
    /// The dialog for `session`: its device, the media it plays and that media's image.
    init(session: CastSession, imagePicker: any ImagePicker = FirstImagePicker()) {
        let metadata = session.remoteMediaClient.mediaStatus?.media?.metadata
        self.init(
            deviceName: session.device.friendlyName ?? session.host,
            mediaTitle: metadata?.title,
            mediaSubtitle: metadata?.displaySubtitle,
            artworkURL: metadata.flatMap { imagePicker.image(for: Self.artworkHints, from: $0)?.url }
        )
    }
}
