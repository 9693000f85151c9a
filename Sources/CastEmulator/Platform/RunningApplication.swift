import CastCore

/// A launched receiver app and its state.
struct RunningApplication: Sendable {
    /// The registry entry the app was launched from.
    var definition: ReceiverAppDefinition
    /// The variant launched: `WEB` or `ANDROID_TV`.
    var appType: AppType
    /// The receiver application session id (the target of `STOP`).
    var sessionID: String
    /// The endpoint id senders address the app with.
    var transportID: String
    /// The Cast Connect launch credentials the app received.
    var launchCredentials: CredentialsData?
    /// The media player, for apps that handle the media namespace.
    var player: MediaPlayer?

    /// The app id `RECEIVER_STATUS` reports: the native id for an Android TV launch.
    var reportedAppID: String {
        if appType == .androidTV, let native = definition.androidTV?.nativeAppID { return native }
        return definition.appID
    }

    /// The entry of `RECEIVER_STATUS` `applications`.
    var status: ReceiverApplication {
        ReceiverApplication(
            appID: reportedAppID,
            appType: appType,
            universalAppID: definition.appID,
            displayName: definition.displayName,
            iconURL: definition.iconURL,
            isIdleScreen: definition.isIdleScreen,
            launchedFromCloud: false,
            namespaces: definition.namespaces.map { ApplicationNamespace(name: $0.rawValue) },
            sessionID: sessionID,
            statusText: definition.statusText,
            transportID: transportID
        )
    }
}
