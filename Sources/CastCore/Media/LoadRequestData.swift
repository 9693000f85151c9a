/// What to load and how (the body of a `LOAD` request).
///
/// Either `media` or `queueData` (or both) must be set.
public struct LoadRequestData: Codable, Sendable, Hashable {
    /// The media to load.
    public var media: MediaInformation?
    /// A queue to load.
    public var queueData: QueueData?
    /// Whether to start playing; receivers default to `true`.
    public var autoplay: Bool?
    /// Where to start, in seconds; absent means the start (or the live edge).
    public var currentTime: Double?
    /// The playback rate; receivers default to 1.
    public var playbackRate: Double?
    /// The tracks to enable.
    public var activeTrackIDs: [Int]?
    /// User credentials for web receivers.
    public var credentials: String?
    /// The kind of `credentials`, e.g. `ios`.
    public var credentialsType: String?
    /// User credentials for Android TV receivers.
    public var atvCredentials: String?
    /// The kind of `atvCredentials`.
    public var atvCredentialsType: String?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        media: MediaInformation? = nil,
        queueData: QueueData? = nil,
        autoplay: Bool? = nil,
        currentTime: Double? = nil,
        playbackRate: Double? = nil,
        activeTrackIDs: [Int]? = nil,
        credentials: String? = nil,
        credentialsType: String? = nil,
        atvCredentials: String? = nil,
        atvCredentialsType: String? = nil,
        customData: JSONValue? = nil
    ) {
        self.media = media
        self.queueData = queueData
        self.autoplay = autoplay
        self.currentTime = currentTime
        self.playbackRate = playbackRate
        self.activeTrackIDs = activeTrackIDs
        self.credentials = credentials
        self.credentialsType = credentialsType
        self.atvCredentials = atvCredentials
        self.atvCredentialsType = atvCredentialsType
        self.customData = customData
    }

    /// The start position; the same value as ``currentTime``.
    public var startTime: Double? {
        get { currentTime }
        set { currentTime = newValue }
    }

    /// The members by their names on the wire.
    private enum CodingKeys: String, CodingKey {
        case media, queueData, autoplay, currentTime, playbackRate
        case activeTrackIDs = "activeTrackIds"
        case credentials, credentialsType, atvCredentials, atvCredentialsType, customData
    }
}

extension LoadRequestData: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            media: try object.decodeIfPresent("media"),
            queueData: try object.decodeIfPresent("queueData"),
            autoplay: (try object.decodeIfPresent("autoplay") as LenientBool?)?.value,
            currentTime: try object.decodeIfPresent("currentTime"),
            playbackRate: try object.decodeIfPresent("playbackRate"),
            activeTrackIDs: try object.decodeIfPresent("activeTrackIds"),
            credentials: try object.decodeIfPresent("credentials"),
            credentialsType: try object.decodeIfPresent("credentialsType"),
            atvCredentials: try object.decodeIfPresent("atvCredentials"),
            atvCredentialsType: try object.decodeIfPresent("atvCredentialsType"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension LoadRequestData: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("media", media)
        try writer.member("queueData", queueData)
        try writer.member("autoplay", autoplay)
        try writer.member("currentTime", currentTime)
        try writer.member("playbackRate", playbackRate)
        try writer.member("activeTrackIds", activeTrackIDs)
        try writer.member("credentials", credentials)
        try writer.member("credentialsType", credentialsType)
        try writer.member("atvCredentials", atvCredentials)
        try writer.member("atvCredentialsType", atvCredentialsType)
        try writer.member("customData", customData)
    }
}

/// A boolean as a receiver's JavaScript reads it: a string counts by its truthiness, so any
/// non-empty string is `true`. VLC 3's LOAD sends `"autoplay":"false"`, and real receivers
/// start playing it (VLC never sends PLAY for a fresh session; it waits for PLAYING).
private struct LenientBool: TokenDecodable {
    let value: Bool

    init(token index: Int, in document: JSONDocument) throws {
        if let flag = try? document.bool(at: index) {
            value = flag
            return
        }
        value = try !document.checkedString(at: index).isEmpty
    }
}
