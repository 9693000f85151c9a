/// What the device chooser says when it finds no device: the likely reasons and a way to
/// search again (the "permissions and discovery" guidance).
public struct NoDevicesGuidance: Sendable, Hashable {
    /// One reason devices may be missing.
    public struct Reason: Sendable, Hashable {
        /// A short question or heading.
        public var title: String
        /// What to check.
        public var detail: String

        /// Creates a reason.
        public init(title: String, detail: String) {
            self.title = title
            self.detail = detail
        }
    }

    /// The heading.
    public var title: String
    /// The introduction.
    public var message: String
    /// The reasons, most likely first.
    public var reasons: [Reason]
    /// The label of the button that restarts discovery.
    public var retryTitle: String

    /// Creates guidance.
    public init(title: String, message: String, reasons: [Reason], retryTitle: String) {
        self.title = title
        self.message = message
        self.reasons = reasons
        self.retryTitle = retryTitle
    }

    /// The standard English guidance.
    public static let standard = NoDevicesGuidance(
        title: "No Cast devices found",
        message: "Make sure the device you want to cast to is ready:",
        reasons: [
            Reason(
                title: "Same Wi-Fi network?",
                detail: "This device and the Cast device must be on the same Wi-Fi network."
            ),
            Reason(
                title: "Cast device powered on?",
                detail: "Turn the TV or speaker on and wait until it has joined the network."
            ),
            Reason(
                title: "VPN or firewall?",
                detail: "A VPN or a firewall can hide devices on the local network; turn it off and try again."
            ),
            Reason(
                title: "Multicast blocked?",
                detail: "Some networks (guest, hotel, office) block the multicast traffic Cast discovery uses."
            ),
            Reason(
                title: "Local network permission allowed?",
                detail: "Allow this app to use the local network in the system's privacy settings."
            ),
        ],
        retryTitle: "Try again"
    )
}
