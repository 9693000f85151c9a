import CastCore

/// The parts of the device configuration and of the running app the media player needs.
struct MediaPlayerSettings: Sendable {
    var bufferingDelay: Duration
    var defaultMediaDuration: Double
    /// How often a playing session broadcasts its status unasked; `nil` for never.
    var statusInterval: Duration?
    var defaultBreakClipDuration: Double
    var unloadableContentMarkers: [String]
    var maximumQueueItems: Int
    /// Whether `MEDIA_STATUS` `customData` shows the credentials the app received (Cast
    /// Connect apps).
    var reportsCredentials: Bool
    /// The variant of the app the player runs in.
    var appType: AppType
    /// The Cast Connect launch credentials of the app.
    var launchCredentials: CredentialsData?
    /// How the status is shaped for the device's class (``DeviceProfile``).
    var statusShape = MediaStatusShape()
    /// Whether `LOAD` reads the media.
    var mediaMode = MediaMode.simulate

    /// Whether loading `media` fails by configuration.
    func isUnloadable(_ media: MediaInformation) -> Bool {
        let locations = [media.contentID, media.contentURL].compactMap { $0 }
        return unloadableContentMarkers.contains { marker in
            !marker.isEmpty && locations.contains { $0.contains(marker) }
        }
    }
}
