/// What a Cast-button tap asks the front end to present.
public enum CastButtonAction: Sendable, Hashable {
    /// The first-use local-network interstitial (``LocalNetworkInterstitialModel``); the
    /// device chooser follows once it is accepted.
    case presentLocalNetworkInterstitial
    /// The device chooser (``DeviceChooserModel``).
    case presentDeviceChooser
    /// The stop-casting dialog.
    case presentStopCastingDialog(StopCastingDialog)
}
