import CastNet
package import CastSync
import CastTime
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The entry point of the SDK (as `GCKCastContext`): options, discovery, sessions, cast
/// state and launch credentials.
///
/// Apps usually configure one shared context early:
///
/// ```swift
/// try CastContext.setSharedInstance(with: CastOptions(receiverApplicationID: "CC1AD845"))
/// let context = CastContext.sharedInstance
/// ```
///
/// Tests and tools can create independent contexts with ``init(options:)``.
///
/// Keep a context alive for as long as its sessions are in use. Sessions report their
/// lifecycle to the context's ``sessionManager``, which they reference weakly so that a
/// session never keeps a context alive; once the context and its managers are released, a
/// session that is still held elsewhere keeps its connection but its lifecycle events
/// (suspend, resume, end) reach no listener. The shared instance lives as long as the
/// process.
public final class CastContext: Sendable {
    private struct State {
        var useDefaultExpandedMediaControls = false
    }

    private final class CredentialsBox: Sendable {
        let value = Locked<CredentialsData?>(nil)
    }

    private static let shared = Locked<CastContext?>(nil)

    /// The options the context was created with.
    public let options: CastOptions
    /// Device discovery.
    public let discoveryManager: DiscoveryManager
    /// Sessions.
    public let sessionManager: SessionManager
    private let state = Locked(State())
    private let credentials = CredentialsBox()
    private let castStates: ListenerSet<AnyObject, CastState>
    private let observedCastState = ObservedValue(CastState.noDevicesAvailable)
    private let expandedControlsTriggers: ListenerSet<AnyObject, Void>
    /// Values other modules of the package attach to the context (the widgets' image picker
    /// and cache), by key.
    package let attachments = Locked<[String: any Sendable]>([:])
    /// The session the app's last trip to the background suspended, if any.
    let suspendedForBackground = Locked<CastSession?>(nil)

    // MARK: Shared instance

    /// Configures the shared context.
    /// - Throws: ``CastError/Code/alreadyInitialized`` (19) when it was configured before.
    public static func setSharedInstance(with options: CastOptions) throws(CastError) {
        let created = shared.withLock { shared -> Bool in
            guard shared == nil else { return false }
            shared = CastContext(options: options)
            return true
        }
        guard created else {
            throw CastError(.alreadyInitialized, "setSharedInstance: the shared CastContext is already configured")
        }
    }

    /// Whether the shared context was configured.
    public static var isSharedInstanceInitialized: Bool { shared.withLock { $0 != nil } }

    /// The shared context. Configure it first with ``setSharedInstance(with:)``; using it
    /// before that is a programming error.
    public static var sharedInstance: CastContext {
        guard let context = shared.withLock({ $0 }) else {
            preconditionFailure("CastContext.sharedInstance used before CastContext.setSharedInstance(with:)")
        }
        return context
    }

    // MARK: Creating

    /// Creates an independent context connecting over TLS and discovering over mDNS.
    public convenience init(options: CastOptions) {
        let clock = SystemCastClock()
        var connection = CastConnectionConfiguration()
        connection.frameTimeout = options.frameTimeout
        self.init(
            options: options,
            connector: TLSTransportConnector(configuration: connection, clock: clock),
            clock: clock,
            browser: MDNSDeviceBrowser(
                criteria: options.discoveryCriteria,
                interfaceNames: options.discoveryInterfaces
            ),
            setupInfo: .http
        )
    }

    init(
        options: CastOptions,
        connector: any CastTransportConnector,
        clock: any CastClock,
        browser: (any DeviceBrowser)?,
        setupInfo: DeviceSetupInfoSource? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.options = options
        let credentials = self.credentials
        castStates = ListenerSet(queue: options.callbackQueue)
        expandedControlsTriggers = ListenerSet(queue: options.callbackQueue)
        let changed = WeakContext()
        var environment = SessionEnvironment(
            options: options,
            connector: connector,
            clock: clock,
            random: random,
            launchCredentials: { credentials.value.withLock { $0 } },
            store: options.sessionStoreURL.map(SessionStore.init(url:)),
            setupInfo: setupInfo
        )
        environment.mediaLoaded = { changed.value?.mediaLoaded() }
        environment.locateDevice = { uniqueID in
            // A device discovery knows now, else (while discovery runs) one it finds soon.
            guard let manager = changed.value?.discoveryManager else { return nil }
            if let device = manager.device(withUniqueID: uniqueID) { return device }
            guard manager.isDiscoveryActive else { return nil }
            return await manager.findDevice(uniqueID: uniqueID, timeout: options.resumeDiscoveryTimeout)
        }
        environment.groupMembersLearned = { group, members in
            changed.value?.discoveryManager.learnMembers(members, ofGroup: group)
        }
        environment.castingGroupsLearned = { device, groups in
            changed.value?.discoveryManager.learnGroups(groups, ofDevice: device)
        }
        discoveryManager = DiscoveryManager(browser: browser, environment: environment) {
            changed.value?.updateCastState()
        }
        sessionManager = SessionManager(environment: environment) { changed.value?.updateCastState() }
        changed.value = self
        options.logger.log(.info, .context, "context created", metadata: ["cast.app-id": options.receiverApplicationID])
        if !options.disableDiscoveryAutostart, !options.startDiscoveryAfterFirstTapOnCastButton {
            try? discoveryManager.startDiscovery()
        }
        if options.resumesSavedSession, sessionManager.hasSavedSession {
            let manager = sessionManager
            Task { _ = try? await manager.resumeSavedSession() }
        }
    }

    // MARK: Cast state

    /// Whether casting is possible and happening.
    public var castState: CastState { observedCastState.value }

    /// A stream of every later cast state change (as `gckCastStateDidChange`). To start from
    /// the state as it is now, use ``observeCastState()``.
    public func castStateChanges() -> AsyncStream<CastState> { castStates.stream() }

    /// A stream of the cast state now, then every change: the first value arrives at once,
    /// so a caller waiting for `.connected` never misses one that already happened.
    ///
    /// ```swift
    /// for await state in context.observeCastState() where state == .connected { break }
    /// ```
    public func observeCastState() -> AsyncStream<CastState> { observedCastState.stream() }

    func updateCastState() {
        let connection = sessionManager.connectionState
        let next: CastState =
            switch connection {
            case .connected: .connected
            case .connecting: .connecting
            default: discoveryManager.hasDiscoveredDevices ? .notConnected : .noDevicesAvailable
            }
        guard observedCastState.update(next) else { return }
        castStates.emit(next, { _, _ in }, after: announcement(.castStateChanged(next)))
    }

    // MARK: Expanded controls

    /// Whether the widgets present the default expanded controller after this app loads
    /// media (as `useDefaultExpandedMediaControls`). Either way, every successful LOAD sent
    /// by a session of this context is announced through ``expandedMediaControlsTriggers()``
    /// (and `expandedMediaControlsTriggeredNotification` of `CastSenderNotifications`), so an app with its own expanded
    /// controller presents that instead. Defaults to `false`.
    public var useDefaultExpandedMediaControls: Bool {
        get { state.withLock { $0.useDefaultExpandedMediaControls } }
        set { state.withLock { $0.useDefaultExpandedMediaControls = newValue } }
    }

    /// A stream that yields each time the expanded controls should be shown: a LOAD sent by
    /// one of the context's sessions succeeded, or the app called
    /// ``presentDefaultExpandedMediaControls()``. (`CastContext.expandedMediaControlsTriggeredNotification`,
    /// the `NotificationCenter` name of Google's SDK, is in `CastSenderNotifications`.)
    public func expandedMediaControlsTriggers() -> AsyncStream<Void> { expandedControlsTriggers.stream() }

    /// Asks for the default expanded controller (as `presentDefaultExpandedMediaControls`):
    /// the widgets' container presents it.
    public func presentDefaultExpandedMediaControls() {
        options.logger.log(.debug, .context, "expanded media controls requested")
        triggerExpandedControls()
    }

    private func mediaLoaded() {
        options.logger.log(
            .debug,
            .context,
            "media loaded; expanded controls triggered",
            metadata: ["cast.default-expanded-controls": "\(useDefaultExpandedMediaControls)"]
        )
        triggerExpandedControls()
    }

    private func triggerExpandedControls() {
        expandedControlsTriggers.emit((), { _, _ in }, after: announcement(.expandedMediaControlsTriggered))
    }

    /// The logger of the context's options, for the widgets made for it.
    package var logger: CastLogger { options.logger }

    // MARK: Cast Connect

    /// Sets the credentials sent with LAUNCH (and when joining) for Cast Connect
    /// (`appParams.launchCheckerParams.credentialsData`). They reach the receiver only at the
    /// next launch or join; setting them during a session sends nothing.
    public func setLaunchCredentials(_ credentials: CredentialsData?) {
        self.credentials.value.withLock { $0 = credentials }
    }

    /// The launch credentials in effect.
    public var launchCredentials: CredentialsData? { credentials.value.withLock { $0 } }
}

/// Lets the managers reach their context without keeping it alive.
private final class WeakContext: @unchecked Sendable {
    // Written once during CastContext.init before any callback can run; read afterwards.
    weak var value: CastContext?
}
