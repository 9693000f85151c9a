/// Which devices and apps a context is for (as `GCKDiscoveryCriteria`): the receiver
/// application ID, which also selects the `_<APPID>._googlecast._tcp` mDNS subtype.
public struct DiscoveryCriteria: Sendable, Hashable {
    /// The ID of the Default Media Receiver, `CC1AD845`.
    public static let defaultMediaReceiverApplicationID = "CC1AD845"

    /// The receiver application ID.
    public var applicationID: String

    /// Creates criteria for `applicationID`.
    public init(applicationID: String) {
        self.applicationID = applicationID
    }

    /// The DNS-SD subtype browsed for this application.
    public var subtype: String { "_\(applicationID)._sub._googlecast._tcp.local" }
}
