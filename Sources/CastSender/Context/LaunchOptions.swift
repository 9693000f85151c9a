/// How a session launches the receiver application (as `GCKLaunchOptions`).
public struct LaunchOptions: Sendable, Hashable {
    /// The language for the receiver app (RFC 5646, e.g. `en-US`); `nil` sends none.
    public var languageCode: String?
    /// Whether to send LAUNCH even when the app already runs; otherwise the session joins it.
    public var relaunchIfRunning: Bool
    /// Whether an Android TV receiver app may be launched (Cast Connect): LAUNCH then lists
    /// `supportedAppTypes` `["WEB", "ANDROID_TV"]` instead of `["WEB"]`.
    public var androidReceiverCompatible: Bool

    /// Creates launch options.
    public init(languageCode: String? = nil, relaunchIfRunning: Bool = false, androidReceiverCompatible: Bool = false) {
        self.languageCode = languageCode
        self.relaunchIfRunning = relaunchIfRunning
        self.androidReceiverCompatible = androidReceiverCompatible
    }

    /// The `supportedAppTypes` of LAUNCH.
    var supportedAppTypes: [AppType] { androidReceiverCompatible ? [.web, .androidTV] : [.web] }
}
