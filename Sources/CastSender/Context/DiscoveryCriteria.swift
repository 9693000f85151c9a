/// Which devices and apps a context is for (as `GCKDiscoveryCriteria`): the receiver
/// application ID, which also names the `_<APPID>._googlecast._tcp` mDNS subtype.
///
/// Discovery browses the plain `_googlecast._tcp` type and asks for the app's subtype as
/// well, so every Cast device is listed, including those that advertise no subtypes (as
/// pychromecast, catt and go-chromecast list them). An app that wants only devices
/// advertising its app sets ``requiresApplicationSubtype``.
public struct DiscoveryCriteria: Sendable, Hashable {
    /// The ID of the Default Media Receiver, `CC1AD845`.
    public static let defaultMediaReceiverApplicationID = "CC1AD845"

    /// The receiver application ID.
    public var applicationID: String
    /// Whether only devices that advertise the ``subtype`` of ``applicationID`` are listed.
    /// Defaults to `false`: the subtype is an extra query, not a condition.
    public var requiresApplicationSubtype: Bool

    /// Creates criteria for `applicationID`.
    public init(applicationID: String, requiresApplicationSubtype: Bool = false) {
        self.applicationID = applicationID
        self.requiresApplicationSubtype = requiresApplicationSubtype
    }

    /// The DNS-SD subtype asked for this application.
    public var subtype: String { "_\(applicationID)._sub._googlecast._tcp.local" }
}
