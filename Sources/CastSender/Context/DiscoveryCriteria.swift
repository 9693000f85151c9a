/// Which devices and apps a context is for (as `GCKDiscoveryCriteria`): one or more
/// receiver application IDs, or the namespaces a receiver app must support.
///
/// Discovery browses the plain `_googlecast._tcp` type and asks for the app's subtype
/// (`_<APPID>._googlecast._tcp`) as well, so every Cast device is listed, including those
/// that advertise no subtypes (as pychromecast, catt and go-chromecast list them). An app
/// that wants only devices advertising its app sets ``requiresApplicationSubtype``.
///
/// A session launches ``applicationID``, the first application ID (the Default Media
/// Receiver when the criteria name only namespaces). It joins instead of launching when the
/// device already runs one of ``applicationIDs``, or an app that lists every one of
/// ``namespaces``.
///
/// ```swift
/// let criteria = DiscoveryCriteria(applicationIDs: ["4F8B3483", "CC1AD845"])
/// let custom = DiscoveryCriteria(namespaces: ["urn:x-cast:com.example.game"])
/// ```
public struct DiscoveryCriteria: Sendable, Hashable {
    /// The ID of the Default Media Receiver, `CC1AD845`.
    public static let defaultMediaReceiverApplicationID = "CC1AD845"

    /// The receiver application IDs, in order, without repeats.
    public private(set) var applicationIDs: [String]
    /// The namespaces a joinable receiver app must support, in order, without repeats.
    public private(set) var namespaces: [String]

    /// Whether only devices that advertise the subtype of the application discovery asks
    /// for (the one application ID, when there is one) are listed. Defaults to `false`: the subtype is an
    /// extra query, not a condition. With several application IDs, or only namespaces, no
    /// device is filtered out.
    public var requiresApplicationSubtype = false

    /// Creates criteria for `applicationID`.
    public init(applicationID: String, requiresApplicationSubtype: Bool = false) {
        self.init(applicationIDs: [applicationID])
        self.requiresApplicationSubtype = requiresApplicationSubtype
    }

    /// Creates criteria for several application IDs; the first is the one a session
    /// launches. Repeated IDs are kept once; empty IDs are dropped.
    public init(applicationIDs: [String]) {
        self.applicationIDs = Self.unique(applicationIDs)
        namespaces = []
    }

    /// Creates criteria for receiver apps that support every one of `namespaces`; a
    /// session joins such an app when one runs, else launches the Default Media Receiver.
    public init(namespaces: [String]) {
        applicationIDs = []
        self.namespaces = Self.unique(namespaces)
    }

    /// Creates criteria with both application IDs and namespaces.
    public init(applicationIDs: [String], namespaces: [String]) {
        self.applicationIDs = Self.unique(applicationIDs)
        self.namespaces = Self.unique(namespaces)
    }

    /// The application a session launches: the first application ID, else the Default
    /// Media Receiver.
    public var applicationID: String { applicationIDs.first ?? Self.defaultMediaReceiverApplicationID }

    /// Whether the criteria name application IDs.
    public var hasApplicationIDs: Bool { !applicationIDs.isEmpty }

    /// Whether the criteria name namespaces.
    public var hasNamespaces: Bool { !namespaces.isEmpty }

    /// The DNS-SD subtype of the launched application.
    public var subtype: String { Self.subtype(for: applicationID) }

    /// The DNS-SD subtypes of every application ID (`_<APPID>._sub._googlecast._tcp.local`).
    public var allSubtypes: [String] { applicationIDs.map(Self.subtype(for:)) }

    /// The application ID whose subtype discovery asks for besides `_googlecast._tcp`: the
    /// only application ID when there is exactly one; with several, or with only namespaces,
    /// discovery asks for the plain type alone.
    var browsedApplicationID: String? { applicationIDs.count == 1 ? applicationIDs[0] : nil }

    /// Whether a running receiver app can be joined under these criteria.
    func allowsJoining(_ app: ReceiverApplication) -> Bool {
        if applicationIDs.contains(app.appID) { return true }
        if let universal = app.universalAppID, applicationIDs.contains(universal) { return true }
        if applicationIDs.isEmpty, namespaces.isEmpty {
            return app.appID == Self.defaultMediaReceiverApplicationID
        }
        guard hasNamespaces else { return false }
        return namespaces.allSatisfy { app.supports(namespace: $0) }
    }

    private static func subtype(for applicationID: String) -> String {
        "_\(applicationID)._sub._googlecast._tcp.local"
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
