public import CastCore

/// A receiver application a virtual device can launch: an entry of its app registry.
///
/// What an app does follows from its namespaces: with
/// `CastCore.CastNamespace.media` it runs the simulated media player; on every other
/// namespace it declares (such as `urn:x-cast:com.google.cast.sample.helloworld`) it echoes
/// each message back to its sender, as Google's HelloWorld sample receiver does. Messages on
/// ``playerMessageNamespace`` are ignored.
public struct ReceiverAppDefinition: Hashable, Sendable {
    /// The Cast application id, e.g. `CC1AD845`.
    public var appID: String
    /// The name shown in `RECEIVER_STATUS`.
    public var displayName: String
    /// The namespaces the app handles, in the order `RECEIVER_STATUS` lists them.
    public var namespaces: [CastNamespace]
    /// The status text shown while the app runs.
    public var statusText: String
    /// The icon URL shown in `RECEIVER_STATUS`.
    public var iconURL: String
    /// Whether the app is an idle screen (`isIdleScreen`), like Backdrop.
    public var isIdleScreen: Bool
    /// The Android TV variant for Cast Connect, or `nil` for a web-only app.
    public var androidTV: AndroidTVVariant?

    /// The Android TV variant of a Cast Connect app.
    ///
    /// A `LAUNCH` that lists `ANDROID_TV` in `supportedAppTypes` starts this variant:
    /// `appType` `ANDROID_TV`, ``nativeAppID`` as `appId`, and the requested id as
    /// `universalAppId`. Other launches start the web variant.
    public struct AndroidTVVariant: Hashable, Sendable {
        /// The id of the native Android TV app, e.g. `2C6A6E3D`.
        public var nativeAppID: String

        /// Creates a variant.
        public init(nativeAppID: String) {
            self.nativeAppID = nativeAppID
        }
    }

    /// Creates an app definition.
    public init(
        appID: String,
        displayName: String,
        namespaces: [CastNamespace],
        statusText: String? = nil,
        iconURL: String = "",
        isIdleScreen: Bool = false,
        androidTV: AndroidTVVariant? = nil
    ) {
        self.appID = appID
        self.displayName = displayName
        self.namespaces = namespaces
        self.statusText = statusText ?? displayName
        self.iconURL = iconURL
        self.isIdleScreen = isIdleScreen
        self.androidTV = androidTV
    }

    /// `urn:x-cast:com.google.cast.player.message`, advertised by the Default Media Receiver.
    public static let playerMessageNamespace: CastNamespace = "urn:x-cast:com.google.cast.player.message"

    /// The Default Media Receiver, `CC1AD845`.
    public static let defaultMediaReceiver = ReceiverAppDefinition(
        appID: "CC1AD845",
        displayName: "Default Media Receiver",
        namespaces: [.media, playerMessageNamespace],
        statusText: "Ready To Cast"
    )

    /// `urn:x-cast:com.google.cast.sample.helloworld`: the text channel of Google's HelloWorld
    /// sample receiver, which the codelab's advanced features use for custom channels.
    public static let helloWorldNamespace: CastNamespace = "urn:x-cast:com.google.cast.sample.helloworld"

    /// A media receiver with the codelab's text channel: the Default Media Receiver's id,
    /// name and media player, plus ``helloWorldNamespace``, whose messages it answers by
    /// sending them back, as the HelloWorld sample receiver does. A sender set up for the
    /// Default Media Receiver launches it, plays media on it and can use a custom channel.
    public static let mediaReceiverWithTextChannel = ReceiverAppDefinition(
        appID: "CC1AD845",
        displayName: "Default Media Receiver",
        namespaces: [.media, playerMessageNamespace, helloWorldNamespace],
        statusText: "Ready To Cast"
    )

    /// Backdrop, `E8C28D3C`: the idle screen shown while no other app runs.
    public static let backdrop = ReceiverAppDefinition(
        appID: "E8C28D3C",
        displayName: "Backdrop",
        // Every captured Backdrop lists the server-sent-events namespace.
        namespaces: ["urn:x-cast:com.google.cast.sse"],
        statusText: "",
        isIdleScreen: true
    )

    /// Whether the app runs the media player.
    public var hasMediaPlayer: Bool { namespaces.contains(.media) }

    /// Whether the app handles `namespace` (it is in ``namespaces``).
    public func handles(_ namespace: CastNamespace) -> Bool { namespaces.contains(namespace) }
}
