import CastAuth
public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The configuration of a ``CastContext`` (as `GCKCastOptions`), set once when the context
/// is created.
///
/// ```swift
/// var options = CastOptions(discoveryCriteria: DiscoveryCriteria(applicationID: "CC1AD845"))
/// options.physicalVolumeButtonsWillControlDeviceVolume = true
/// options.launchOptions = LaunchOptions(androidReceiverCompatible: true)
/// try CastContext.setSharedInstance(with: options)
/// ```
public struct CastOptions: Sendable {
    /// Which receiver app sessions launch, and which devices discovery looks for.
    public var discoveryCriteria: DiscoveryCriteria
    /// How the receiver app is launched; `nil` uses ``LaunchOptions/init(languageCode:relaunchIfRunning:androidReceiverCompatible:)``'s defaults.
    public var launchOptions: LaunchOptions?
    /// When `true`, discovery starts only when the app calls ``DiscoveryManager/startDiscovery()``.
    public var disableDiscoveryAutostart = false
    /// When `true` (the default) and autostart is on, discovery waits for the first tap on
    /// the Cast button (see ``DiscoveryManager/castButtonTapped()``).
    public var startDiscoveryAfterFirstTapOnCastButton = true
    /// Whether the app's volume keys drive the device volume while casting: the front end
    /// hands them to ``CastContext/volumeKeyPressed(_:)``, which sends nothing when this is
    /// `false`. Defaults to `true`.
    public var physicalVolumeButtonsWillControlDeviceVolume = true
    /// Whether ending a session also stops the receiver app: the default of
    /// ``SessionManager/endSession(stopCasting:)``, and what
    /// ``CastContext/applicationWillTerminate()`` does with a session. Defaults to `false`.
    public var stopReceiverApplicationWhenEndingSession = false
    /// Whether ``CastContext/applicationDidEnterBackground()`` suspends the connected session
    /// (closing its connection until ``CastContext/applicationWillEnterForeground()``).
    /// Defaults to `true`.
    public var suspendSessionsWhenBackgrounded = true
    /// The PING interval. Defaults to 5 s.
    public var heartbeatInterval: Duration = .seconds(5)
    /// The silence after which a device is considered lost. Defaults to 10 s.
    public var heartbeatTimeout: Duration = .seconds(10)
    /// The longest one frame from the device may take to arrive once it has begun; a device
    /// that trickles bytes is disconnected with a ``CastError/Code/timeout`` error. Defaults
    /// to 10 s.
    public var frameTimeout: Duration = .seconds(10)
    /// How long a request waits for its reply. Defaults to 10 s.
    public var requestTimeout: Duration = .seconds(10)
    /// How long LAUNCH waits for the app to start. Defaults to 30 s.
    public var launchTimeout: Duration = .seconds(30)
    /// How lost sessions reconnect.
    public var reconnectBackoff = ReconnectBackoff()
    /// Where the current session is saved so that the next process can resume it; `nil`
    /// (the default) saves nothing.
    public var sessionStoreURL: URL?
    /// Whether a new context resumes the session found at ``sessionStoreURL``.
    public var resumesSavedSession = true
    /// How long resuming a saved session waits for running discovery to find the device
    /// again (by its unique id), so that a device whose address changed is rejoined where it
    /// is now; the saved address is used when it is not found. Defaults to 3 s.
    public var resumeDiscoveryTimeout: Duration = .seconds(3)
    /// Whether and how devices prove they are genuine after the TLS handshake (the
    /// `deviceauth` challenge). Defaults to `DeviceAuthenticationPolicy.required`: every
    /// device must prove it holds a key certified by one of Google's Cast roots (the CRL is
    /// checked when the device sends one), as Google's senders do.
    ///
    /// To accept devices with other roots as well (a virtual device's root from
    /// `cast-emulator --auth-root-out FILE`), add them and keep the mode:
    ///
    /// ```swift
    /// options.deviceAuthentication.additionalTrustAnchors.append(root)
    /// ```
    ///
    /// An explicit `DeviceAuthenticationPolicy.Mode.off` or
    /// `DeviceAuthenticationPolicy.Mode.ifSupported` accepts devices that did not
    /// authenticate, with a warning logged once per device; such devices get no secrets
    /// unless ``sendsSecretsToUnauthenticatedDevices`` is set.
    public var deviceAuthentication: DeviceAuthenticationPolicy = .required
    /// Whether secrets may go to a device that did not authenticate (accepted under an
    /// explicit `DeviceAuthenticationPolicy.Mode.off` or
    /// `DeviceAuthenticationPolicy.Mode.ifSupported`). Defaults to `false`.
    ///
    /// While `false`, nothing secret leaves the process towards such a device: a session
    /// start that would send launch credentials (on LAUNCH, or on the LAUNCH that joins a
    /// running app) fails, and a media request that carries `customData`, `credentials` or
    /// `atvCredentials` (LOAD, PLAY, SEEK, QUEUE_UPDATE, ...) fails at once, each with
    /// ``CastError/Code/secretsWithheld`` (93) and nothing sent. Messages of the app's own
    /// channels (``GenericChannel``) are the app's: check
    /// ``CastSession/isDeviceAuthenticated`` before sending secrets there.
    public var sendsSecretsToUnauthenticatedDevices = false
    /// The wall clock device certificates are checked against. Defaults to the system time.
    public var currentDate: @Sendable () -> Date = { Date() }
    /// How long the device-auth reply may take. Defaults to 10 s.
    public var deviceAuthenticationTimeout: Duration = .seconds(10)
    /// The logger; silent until the app gives it a sink.
    public var logger: CastLogger = .shared
    /// The serial queue on which every listener, delegate and channel callback runs, in order.
    public var callbackQueue = DispatchQueue(label: "swift-cast.sender.callbacks")
    /// The network interfaces discovery browses on, by name (`["eth0"]`, `["lo"]` to find
    /// virtual devices on this machine). `nil` (the default) browses every interface that is
    /// up, multicast-capable and not loopback. A start that finds none fails with a
    /// ``CastError/Code/network`` error naming each interface seen and why it was left out.
    ///
    /// The SDK reads no environment variable: an app that wants one (the `cast` command line
    /// reads `CAST_DISCOVERY_INTERFACES`) passes its value in here.
    public var discoveryInterfaces: [String]?
    /// The directory the widgets' disk image cache keeps its files in (an `images` folder
    /// inside it). `nil` (the default) uses the user's cache directory as `FileManager`
    /// reports it, in a `swift-cast` folder.
    public var cacheDirectory: URL?
    /// The user agent sent in CONNECT.
    public var userAgent = "swift-cast"
    /// The name of this sender device, sent in LAUNCH.
    public var senderDeviceName: String?

    /// Creates options for the app in `discoveryCriteria`.
    public init(discoveryCriteria: DiscoveryCriteria) {
        self.discoveryCriteria = discoveryCriteria
    }

    /// Creates options for `receiverApplicationID`.
    public init(receiverApplicationID: String) {
        self.init(discoveryCriteria: DiscoveryCriteria(applicationID: receiverApplicationID))
    }

    /// The receiver application ID.
    public var receiverApplicationID: String { discoveryCriteria.applicationID }
}
