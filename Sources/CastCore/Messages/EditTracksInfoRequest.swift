/// `EDIT_TRACKS_INFO` (media namespace): changes the active tracks or the text-track style.
public struct EditTracksInfoRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/editTracksInfo``.
    public var type: CastMessageType { .editTracksInfo }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The tracks to enable; empty disables all.
    public var activeTrackIds: [Int]?
    /// A new text-track style.
    public var textTrackStyle: TextTrackStyle?
    /// A language whose tracks to enable.
    public var language: String?
    /// Whether `language` is a suggestion.
    public var isSuggestedLanguage: Bool?
    /// Whether to enable text tracks.
    public var enableTextTracks: Bool?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        activeTrackIds: [Int]? = nil,
        textTrackStyle: TextTrackStyle? = nil,
        language: String? = nil,
        isSuggestedLanguage: Bool? = nil,
        enableTextTracks: Bool? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.activeTrackIds = activeTrackIds
        self.textTrackStyle = textTrackStyle
        self.language = language
        self.isSuggestedLanguage = isSuggestedLanguage
        self.enableTextTracks = enableTextTracks
        self.customData = customData
    }
}

extension EditTracksInfoRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            activeTrackIds: try object.decodeIfPresent("activeTrackIds"),
            textTrackStyle: try object.decodeIfPresent("textTrackStyle"),
            language: try object.decodeIfPresent("language"),
            isSuggestedLanguage: try object.decodeIfPresent("isSuggestedLanguage"),
            enableTextTracks: try object.decodeIfPresent("enableTextTracks"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension EditTracksInfoRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("activeTrackIds", activeTrackIds)
        try writer.member("textTrackStyle", textTrackStyle)
        try writer.member("language", language)
        try writer.member("isSuggestedLanguage", isSuggestedLanguage)
        try writer.member("enableTextTracks", enableTextTracks)
        try writer.member("customData", customData)
    }
}
