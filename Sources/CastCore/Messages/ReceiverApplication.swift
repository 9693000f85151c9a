/// A running receiver application (`status.applications[]` of `RECEIVER_STATUS`).
public struct ReceiverApplication: Codable, Sendable, Hashable {
    /// The application id (for Cast Connect, the Android TV app id).
    public var appId: String
    /// The kind of application.
    public var appType: AppType?
    /// The Cast application id the sender asked for.
    public var universalAppId: String?
    /// A name to show.
    public var displayName: String?
    /// An icon URL.
    public var iconUrl: String?
    /// Whether this is the idle screen (Backdrop).
    public var isIdleScreen: Bool?
    /// Whether it was launched by the Assistant or the cloud.
    public var launchedFromCloud: Bool?
    /// The namespaces the application handles.
    public var namespaces: [ApplicationNamespace]?
    /// The application session; the target of `STOP`.
    public var sessionId: String?
    /// A status to show.
    public var statusText: String?
    /// The destination id for messages to the application.
    public var transportId: String?
    /// Whether a sender has a virtual connection to the application (newer firmware).
    public var senderConnected: Bool?
    /// Members this version does not model, as received (newer firmware sends `senderConnected`);
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        appId: String,
        appType: AppType? = nil,
        universalAppId: String? = nil,
        displayName: String? = nil,
        iconUrl: String? = nil,
        isIdleScreen: Bool? = nil,
        launchedFromCloud: Bool? = nil,
        namespaces: [ApplicationNamespace]? = nil,
        sessionId: String? = nil,
        statusText: String? = nil,
        transportId: String? = nil,
        senderConnected: Bool? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.appId = appId
        self.appType = appType
        self.universalAppId = universalAppId
        self.displayName = displayName
        self.iconUrl = iconUrl
        self.isIdleScreen = isIdleScreen
        self.launchedFromCloud = launchedFromCloud
        self.namespaces = namespaces
        self.sessionId = sessionId
        self.statusText = statusText
        self.transportId = transportId
        self.senderConnected = senderConnected
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case appId, appType, universalAppId, displayName, iconUrl, isIdleScreen, launchedFromCloud, namespaces,
            sessionId, statusText, transportId
        case senderConnected
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))

    /// Whether the application handles `namespace`.
    public func supports(namespace: String) -> Bool {
        namespaces?.contains { $0.name == namespace } ?? false
    }
}

extension ReceiverApplication: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            appId: try object.decode("appId"),
            appType: try object.decodeIfPresent("appType"),
            universalAppId: try object.decodeIfPresent("universalAppId"),
            displayName: try object.decodeIfPresent("displayName"),
            iconUrl: try object.decodeIfPresent("iconUrl"),
            isIdleScreen: try object.decodeIfPresent("isIdleScreen"),
            launchedFromCloud: try object.decodeIfPresent("launchedFromCloud"),
            namespaces: try object.decodeIfPresent("namespaces"),
            sessionId: try object.decodeIfPresent("sessionId"),
            statusText: try object.decodeIfPresent("statusText"),
            transportId: try object.decodeIfPresent("transportId"),
            senderConnected: try object.decodeIfPresent("senderConnected")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension ReceiverApplication: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("appId", appId)
        try writer.member("appType", appType)
        try writer.member("universalAppId", universalAppId)
        try writer.member("displayName", displayName)
        try writer.member("iconUrl", iconUrl)
        try writer.member("isIdleScreen", isIdleScreen)
        try writer.member("launchedFromCloud", launchedFromCloud)
        try writer.member("namespaces", namespaces)
        try writer.member("sessionId", sessionId)
        try writer.member("statusText", statusText)
        try writer.member("transportId", transportId)
        try writer.member("senderConnected", senderConnected)
        try writer.unknownMembers(unknownMembers)
    }
}
