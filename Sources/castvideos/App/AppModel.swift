import CastCore
import CastSender
import CastSenderUI
import Foundation
import TerminalUI

/// The whole app's state and behaviour. Runs on the main actor: key events come from the
/// terminal loop, SDK events from tasks that hop to the main actor, and every change asks the
/// loop for a new frame.
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

    /// What the catalog is doing.
    enum CatalogState {
        case loading
        case loaded(Catalog)
        case failed(CatalogError)
    }

    /// Where the app plays media (the codelab's playback mode).
    enum PlaybackMode {
        case none
        case local
        case remote
    }

    static let credentialsValue = #"{"userId":"id123"}"#

    let terminal: TerminalApp
    let context: CastContext
    let options: CommandLineOptions
    let configDirectory: URL
    let settingsStore: SettingsStore
    var settings: AppSettings
    var styles: AppStyles
    let glyphs: Glyphs
    let clock = ContinuousClock()

    var catalogSource: CatalogSource
    /// Where the built-in catalog's media is served, when the app serves it.
    var builtInMediaBase: String?
    var catalogState = CatalogState.loading
    var listState = ListState()
    var screens: [Screen] = [.list]
    var modal: Modal?
    /// The speaker-group member the stop-casting dialog's volume keys act on (keys 1–9), or
    /// `nil` for the group itself (key 0).
    var selectedMember: String?
    var chooserState = ListState()
    var queueState = ListState()
    var settingsState = ListState(count: AppSettings.Field.allCases.count)
    var toasts = ToastQueue<Instant>()
    var flashMessage: (text: String, until: Instant)?

    var localPlayer = LocalPlayer<Instant>()
    var localItem: MediaItem?
    var playbackMode = PlaybackMode.none
    var credentialsEnabled = false
    /// The local player's volume in percent (the volume keys change it when not casting).
    var localVolume = 80
    var localMuted = false
    /// The rows of the track selector.
    var tracksState = ListState()
    /// The pictures of the list and detail screens.
    lazy var pictures = PictureLibrary(
        cache: { [context] in context.imageCache },
        changed: { [weak self] in self?.terminal.requestRender() }
    )
    /// Pictures resampled for cells, kept from frame to frame.
    let pictureResizes = PictureResizeCache()
    /// The custom-channel screen, made when first opened.
    lazy var customChannel = CustomChannelScreen { [weak self] in self?.terminal.requestRender() }
    /// What became of the built-in catalog's media (for the settings screen).
    var builtInMediaStatus: String?

    var castState: CastState
    var session: CastSession?
    /// The catalog item last seen playing on the device: what local playback continues.
    var lastRemoteItem: MediaItem?

    // The Cast widgets (CastSenderUI), rendered by this app.
    let uiStore: CastUIStateStore
    let interstitial: LocalNetworkInterstitialModel
    let castButton: CastButtonModel
    /// The members' volumes when the session is to a speaker group (the stop-casting dialog).
    let groupVolume: GroupVolumeModel
    let introductoryOverlay: IntroductoryOverlayModel
    let mediaController: MediaController
    let container: CastContainerModel
    /// The track selector of the expanded controller.
    var trackSelection: TrackSelectionModel { container.expandedController.trackSelection }
    var chooser: DeviceChooserModel? {
        didSet {
            chooserTask?.cancel()
            chooserTask = nil
            guard let chooser else { return }
            let updates = chooser.updates()
            let render: @Sendable () -> Void = { [terminal] in terminal.requestRender() }
            chooserTask = Task {
                for await _ in updates { render() }
            }
        }
    }
    private var chooserTask: Task<Void, Never>?

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
        self.settingsStore = SettingsStore(directory: configDirectory)
        self.settings = settings
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
        self.catalogSource = options.catalog
        self.castState = context.castState
    }

    var now: Instant { clock.now }

    var catalog: Catalog? {
        if case .loaded(let catalog) = catalogState { return catalog }
        return nil
    }

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
        loadCatalog()
    }

    /// Ends every task the model started.
    func shutdown() {
        for task in tasks + sessionTasks { task.cancel() }
        chooser = nil
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
        let now = self.now
        mediaController.tick()
        if localPlayer.update(at: now) {
            toast("Finished: \(localItem?.title ?? "video")")
        }
        if let client = remoteClient, let item = catalog?.item(contentID: client.mediaStatus?.media?.contentID) {
            lastRemoteItem = item
        }
        terminal.requestRender()
    }

    // MARK: Catalog

    func loadCatalog() {
        catalogState = .loading
        let source = catalogSource
        let mediaBase = builtInMediaBase
        tasks.append(
            Task { [weak self] in
                let result: Result<Catalog, CatalogError>
                do throws(CatalogError) {
                    result = .success(try await source.load(builtInMediaBase: mediaBase))
                } catch {
                    result = .failure(error)
                }
                guard let self else { return }
                switch result {
                case .success(let catalog):
                    self.catalogState = .loaded(catalog)
                    self.listState = ListState(count: catalog.items.count)
                case .failure(let error):
                    self.catalogState = .failed(error)
                }
                self.terminal.requestRender()
            }
        )
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
            chooser = nil
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

    // MARK: Built-in media

    /// Makes the built-in catalog's videos with ffmpeg in the background, once, and says so;
    /// without ffmpeg, says what is missing (the videos stay files of headers only).
    func makeBuiltInMedia(_ maker: MediaMaker) {
        guard !maker.isComplete else {
            builtInMediaStatus = "ready (\(maker.library.videos.count) videos and a live stream made by ffmpeg)"
            return
        }
        guard maker.ffmpeg != nil else {
            builtInMediaStatus = "ffmpeg is not installed: the videos hold no pictures"
            toast(
                "ffmpeg is not installed: the built-in videos hold no pictures (install ffmpeg to make them)",
                seconds: 8
            )
            return
        }
        builtInMediaStatus = "being made with ffmpeg…"
        toast("Making the built-in videos with ffmpeg (once)…", seconds: 6)
        tasks.append(
            Task { [weak self] in
                let outcome = await maker.make()
                guard let self else { return }
                switch outcome {
                case .ready, .made:
                    self.builtInMediaStatus =
                        "ready (\(maker.library.videos.count) videos and a live stream made by ffmpeg)"
                    self.toast("The built-in videos are ready")
                case .noFFmpeg:
                    self.builtInMediaStatus = "ffmpeg is not installed: the videos hold no pictures"
                case .failed(let path, let reason):
                    self.builtInMediaStatus = "ffmpeg failed on \(path)"
                    self.toast("Could not make \(path): \(reason)", seconds: 8)
                }
            }
        )
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
