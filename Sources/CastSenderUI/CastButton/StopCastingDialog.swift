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

    /// Creates a dialog.
    public init(
        deviceName: String,
        mediaTitle: String? = nil,
        mediaSubtitle: String? = nil,
        stopButtonTitle: String = "Stop casting",
        closeButtonTitle: String = "Close"
    ) {
        self.deviceName = deviceName
        self.mediaTitle = mediaTitle
        self.mediaSubtitle = mediaSubtitle
        self.stopButtonTitle = stopButtonTitle
        self.closeButtonTitle = closeButtonTitle
    }

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
