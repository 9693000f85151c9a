/// The dialog a Cast-button tap opens while casting: the device, what plays on it and
/// "Stop casting".
public struct StopCastingDialog: Sendable, Hashable {
    /// The device's name.
    public var deviceName: String
    /// The title of what plays, if anything.
    public var mediaTitle: String?
    /// Its subtitle.
    public var mediaSubtitle: String?
    /// The label of the button that ends the session.
    public var stopButtonTitle: String
    /// The label of the button that closes the dialog.
    public var closeButtonTitle: String
    /// The image of what plays, chosen by the image picker for ``ImageUse/castDialog``.
    public var artworkURL: String?
    /// That image as fetched through the image cache and decoded, when the button has a cache.
    public var artwork: Artwork?
    /// The device's volume, for the dialog's volume control (``CastButtonModel/volumeController``).
    public var deviceVolume: DeviceVolumeState?

    /// Creates a dialog.
    public init(
        deviceName: String,
        mediaTitle: String? = nil,
        mediaSubtitle: String? = nil,
        stopButtonTitle: String = "Stop casting",
        closeButtonTitle: String = "Close",
        artworkURL: String? = nil,
        artwork: Artwork? = nil,
        deviceVolume: DeviceVolumeState? = nil
    ) {
        self.deviceName = deviceName
        self.mediaTitle = mediaTitle
        self.mediaSubtitle = mediaSubtitle
        self.stopButtonTitle = stopButtonTitle
        self.closeButtonTitle = closeButtonTitle
        self.artworkURL = artworkURL
        self.artwork = artwork
        self.deviceVolume = deviceVolume
    }

    /// The hints for the dialog's image.
    public static let artworkHints = ImageHints(use: .castDialog, preferredSize: ImageSize(width: 320, height: 180))

    /// The line describing what plays: title and subtitle, or "No media selected".
    public var nowPlaying: String {
        switch (mediaTitle, mediaSubtitle) {
        case (let title?, let subtitle?): "\(title) — \(subtitle)"
        case (let title?, nil): title
        case (nil, let subtitle?): subtitle
        case (nil, nil): "No media selected"
        }
    }
}
