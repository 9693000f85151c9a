import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The app's coordinator: the navigation stack, the modal over it, toasts, the session and the
/// Cast widgets, with one controller per screen that owns that screen's state (the catalog,
/// local playback and the detail screen, the expanded controls, the queue, the track selector,
/// the settings, the device picker). Runs on the main actor: key events come from the terminal
/// loop, SDK events from tasks that hop to the main actor, and every change asks the loop for
/// a new frame.
@MainActor
final class AppModel {
    typealias Instant = ContinuousClock.Instant

    /// The screens of the navigation stack.
    enum Screen: Equatable {
        case list
        case detail(MediaItem)
        case expandedController
        case queue
        case settings
        /// The codelab's custom channel: messages to the receiver app and its replies.
        case customChannel
    }

    /// What is shown over the screen.
    enum Modal {
        case introductoryOverlay
        case interstitial(Dialog)
        case chooser
        case stopCasting(Dialog)
        case actionSheet(Dialog, MediaItem)
        case alert(Dialog)
        case help
        case edit(AppSettings.Field, text: String, problem: String?)
        /// The track selector (audio, subtitles, subtitle style).
        case tracks
    }

    static let credentialsValue = #"{"userId":"id123"}"#

    let terminal: TerminalApp
    let context: CastContext
    let options: CommandLineOptions
    let configDirectory: URL
    /// The settings read at launch; ``settingsScreen`` keeps them from then on.
    private let launchSettings: AppSettings
    var styles: AppStyles
    let glyphs: Glyphs
    let clock = ContinuousClock()

    var screens: [Screen] = [.list]
    var modal: Modal?
    /// The speaker-group member the volume keys act on in the stop-casting dialog and the
    /// expanded controller (keys 1–9), or `nil` for the group itself (key 0).
    var selectedMember: String?
    var toasts = ToastQueue<Instant>()
    var flashMessage: (text: String, until: Instant)?
    var credentialsEnabled = false
    /// The pictures of the list and detail screens.
    lazy var pictures = PictureLibrary(
        cache: { [context] in context.imageCache },
        changed: { [weak self] in self?.terminal.requestRender() }
    )
    /// Pictures resampled for cells, kept from frame to frame.
    let pictureResizes = PictureResizeCache()

    // The screens' controllers, each with the state of its screen.
    /// The catalog and the list screen.
    lazy var catalogScreen = CatalogScreen(app: self, source: options.catalog)
    /// Where media plays (locally or on the device) and the detail screen.
    lazy var playback = PlaybackController(app: self)
    /// The expanded controller and the mini controller.
    lazy var expandedControls = ExpandedControls(app: self)
    /// The queue screen.
    lazy var queueScreen = QueueScreen(app: self)
    /// The track selector over the expanded controller.
    lazy var trackSelector = TrackSelector(app: self)
    /// The settings screen and the editing of a setting.
    lazy var settingsScreen = SettingsScreen(
        app: self,
        store: SettingsStore(directory: configDirectory),
        settings: launchSettings
    )
    /// The Cast dialog: the device chooser.
    lazy var devicePicker = DevicePicker(app: self)
    /// The custom-channel screen, made when first opened.
    lazy var customChannel = CustomChannelScreen { [weak self] in self?.terminal.requestRender() }

    var castState: CastState
    var session: CastSession?

    // The Cast widgets (CastSenderUI), rendered by this app.
    let uiStore: CastUIStateStore
    let interstitial: LocalNetworkInterstitialModel
    let castButton: CastButtonModel
    /// The members' volumes when the session is to a speaker group (the stop-casting dialog).
    let groupVolume: GroupVolumeModel
    let introductoryOverlay: IntroductoryOverlayModel
    let mediaController: MediaController
    let container: CastContainerModel

    private var tasks: [Task<Void, Never>] = []
    private var sessionTasks: [Task<Void, Never>] = []

    init(
        terminal: TerminalApp,
        context: CastContext,
        options: CommandLineOptions,
        configDirectory: URL,
        settings: AppSettings,
        styles: AppStyles
    ) {
        self.terminal = terminal
        self.context = context
        self.options = options
        self.configDirectory = configDirectory
        self.launchSettings = settings
        let uiStore = CastUIStateStore(directory: configDirectory)
        self.uiStore = uiStore
        let interstitial = LocalNetworkInterstitialModel(context: context, store: uiStore)
        self.interstitial = interstitial
        self.castButton = CastButtonModel(context: context, interstitial: interstitial)
        self.groupVolume = GroupVolumeModel(context: context)
        self.introductoryOverlay = IntroductoryOverlayModel(context: context, store: uiStore)
        // Steps 7 and 9: the container docks the mini controller and presents the expanded
        // one after a load (the context's `useDefaultExpandedMediaControls`).
        let container = CastContainerModel(context: context)
        self.container = container
        self.mediaController = container.expandedController.mediaController
        self.styles = styles
        self.glyphs = Glyphs.for(terminal.capabilities)
        self.castState = context.castState
    }

    var now: Instant { clock.now }

    /// The catalog, once loaded.
    var catalog: Catalog? { catalogScreen.catalog }

    /// The settings in force.
    var settings: AppSettings { settingsScreen.settings }

    var topScreen: Screen { screens.last ?? .list }

    /// Whether a session is connected.
    var isConnected: Bool { session?.connectionState == .connected }

    /// The remote media client of the connected session.
    var remoteClient: RemoteMediaClient? { isConnected ? session?.remoteMediaClient : nil }

    /// Whether the mini controller is docked: media is loaded on the device and the expanded
    /// controller is not showing.
    var showsMiniController: Bool {
        topScreen != .expandedController && isConnected && container.state.showsMiniController
    }

    // MARK: Lifecycle

    /// Starts listening to the SDK and loads the catalog.
    func start() {
        observe(context.castStateChanges()) { model, state in model.castStateChanged(state) }
        observe(context.discoveryManager.events()) { model, _ in model.refreshDevices() }
        observe(context.sessionManager.events()) { model, event in model.handle(event) }
        observe(introductoryOverlay.updates()) { model, state in model.overlayChanged(state) }
        observe(castButton.updates()) { _, _ in }
        observe(castButton.stopCastingDialogUpdates()) { _, _ in }
        observe(groupVolume.updates()) { _, _ in }
        observe(container.updates()) { model, state in model.containerChanged(state) }
        observe(container.expandedController.updates()) { _, _ in }
        observe(container.miniController.updates()) { _, _ in }
        tasks.append(
            Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    self?.tick()
                }
            }
        )
        refreshDevices()
        castStateChanged(context.castState)
        overlayChanged(introductoryOverlay.state)
        if let existing = context.sessionManager.currentSession {
            attach(existing)
        }
        catalogScreen.load()
    }

    /// Ends every task the model started.
    func shutdown() {
        for task in tasks + sessionTasks { task.cancel() }
        devicePicker.close()
        tasks = []
        sessionTasks = []
    }

    private func observe<Element: Sendable>(
        _ stream: AsyncStream<Element>,
        _ body: @escaping @MainActor (AppModel, Element) -> Void
    ) {
        tasks.append(
            Task { [weak self] in
                for await element in stream {
                    guard let self else { return }
                    body(self, element)
                    self.terminal.requestRender()
                }
            }
        )
    }

    private func tick() {
        mediaController.tick()
        playback.tick(at: now)
        terminal.requestRender()
    }

    /// Adds a task the model ends at ``shutdown()``.
    func keep(_ task: Task<Void, Never>) {
        tasks.append(task)
    }

    // MARK: Discovery and cast state

    func refreshDevices() {
        terminal.requestRender()
    }

    func castStateChanged(_ state: CastState) {
        castState = state
        // The Cast dialog closes as the session connects (the header says so at once); a key
        // typed then is the next screen's, not the dialog's.
        if state == .connected, case .chooser = modal {
            modal = nil
            devicePicker.close()
        }
    }

    /// Step 8: the introductory overlay, presented once by the widget when a device first
    /// becomes available.
    func overlayChanged(_ state: IntroductoryOverlayModel.State) {
        if state.overlay != nil, modal == nil {
            modal = .introductoryOverlay
        } else if state.overlay == nil, case .introductoryOverlay = modal {
            modal = nil
        }
    }

    // MARK: Toasts

    func toast(_ message: String, seconds: Int = 4) {
        toasts.post(message, duration: .seconds(seconds), now: now)
        terminal.requestRender()
    }

    /// Shows feedback for a control at once, in place of the previous feedback (volume steps,
    /// repeat, tracks): it does not wait behind the toasts, which it covers for two seconds.
    func flash(_ message: String) {
        flashMessage = (message, now.advanced(by: .seconds(2)))
        terminal.requestRender()
    }

    // MARK: Session tasks

    func attach(_ session: CastSession) {
        for task in sessionTasks { task.cancel() }
        self.session = session
        customChannel.attach(to: session)
        let client = session.remoteMediaClient
        let render: @Sendable () -> Void = { [terminal] in terminal.requestRender() }
        sessionTasks = [
            Task {
                for await _ in client.events() { render() }
            },
            Task {
                for await _ in client.mediaQueue.events() { render() }
            },
        ]
    }

    func detachSession() {
        for task in sessionTasks { task.cancel() }
        sessionTasks = []
        session = nil
        customChannel.attach(to: nil)
    }

    // MARK: Navigation

    func push(_ screen: Screen) {
        let covered = topScreen
        screens.append(screen)
        if screen == .expandedController {
            // Step 9: the mini controller is disabled while the expanded controller shows.
            container.miniMediaControlsItemEnabled = false
            container.presentExpandedController()
        } else if covered == .expandedController {
            // A screen over the expanded controller (the queue, the custom channel): the
            // controller no longer shows, and the mini controller docks under that screen.
            container.dismissExpandedController()
            container.miniMediaControlsItemEnabled = true
        }
    }

    /// The container presented the expanded controller by itself (after a load): show it,
    /// going back to it when it is already in the navigation stack under other screens.
    ///
    /// The container's current state decides, not the state the update carried: updates
    /// queue behind key presses, and one sent while the controller showed (a media status)
    /// must not present it again after Escape closed it.
    func containerChanged(_: CastContainerModel.State) {
        guard container.state.isExpandedControllerPresented, topScreen != .expandedController, isConnected else {
            return
        }
        if case .tracks = modal { modal = nil }
        if screens.contains(.expandedController) {
            while topScreen != .expandedController, screens.count > 1 { pop() }
        } else {
            push(.expandedController)
        }
    }

    func pop() {
        guard screens.count > 1 else { return }
        let removed = screens.removeLast()
        if removed == .expandedController, !screens.contains(.expandedController) {
            container.dismissExpandedController()
            container.miniMediaControlsItemEnabled = true
        } else if topScreen == .expandedController, removed != .expandedController, isConnected {
            // Back to the expanded controller: it shows again.
            container.miniMediaControlsItemEnabled = false
            container.presentExpandedController()
        }
    }

    /// Leaves the screens that need a session.
    func popCastScreens() {
        while let last = screens.last,
            last == .expandedController || last == .queue || screens.contains(.expandedController),
            screens.count > 1
        {
            pop()
        }
    }
}
