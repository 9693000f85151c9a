public import CastSender

/// When discovery may start, from the context's options (codelab "permissions and
/// discovery"):
///
/// | `disableDiscoveryAutostart` | `startDiscoveryAfterFirstTapOnCastButton` | discovery starts |
/// |---|---|---|
/// | `false` | `true` (default) | after the first Cast-button tap and the interstitial; at launch once accepted |
/// | `false` | `false` | when the context is created (no interstitial from the button) |
/// | `true` | any | only when the app or a custom picker asks |
public struct DiscoveryStartPolicy: Sendable, Hashable {
    /// Whether the app starts discovery itself.
    public var disableDiscoveryAutostart: Bool
    /// Whether discovery waits for the first Cast-button tap.
    public var startDiscoveryAfterFirstTapOnCastButton: Bool

    /// Creates a policy.
    public init(disableDiscoveryAutostart: Bool = false, startDiscoveryAfterFirstTapOnCastButton: Bool = true) {
        self.disableDiscoveryAutostart = disableDiscoveryAutostart
        self.startDiscoveryAfterFirstTapOnCastButton = startDiscoveryAfterFirstTapOnCastButton
    }

    /// The policy of `options`.
    public init(_ options: CastOptions) {
        self.init(
            disableDiscoveryAutostart: options.disableDiscoveryAutostart,
            startDiscoveryAfterFirstTapOnCastButton: options.startDiscoveryAfterFirstTapOnCastButton
        )
    }

    /// Whether a tap on the Cast button is what starts discovery.
    public var startsOnCastButtonTap: Bool { !disableDiscoveryAutostart && startDiscoveryAfterFirstTapOnCastButton }
}
