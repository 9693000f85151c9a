/// `SEEK` (media namespace): moves the playback position.
///
/// Carries either `currentTime` (absolute) or `relativeTime`.
public struct SeekRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/seek``.
    public var type: CastMessageType { .seek }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The absolute position in seconds.
    public var currentTime: Double?
    /// A move relative to the current position, in seconds.
    public var relativeTime: Double?
    /// Whether to play or pause afterwards; unchanged when absent.
    public var resumeState: ResumeState?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        currentTime: Double? = nil,
        relativeTime: Double? = nil,
        resumeState: ResumeState? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.currentTime = currentTime
        self.relativeTime = relativeTime
        self.resumeState = resumeState
        self.customData = customData
    }
}

extension SeekRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            currentTime: try object.decodeIfPresent("currentTime"),
            relativeTime: try object.decodeIfPresent("relativeTime"),
            resumeState: try object.decodeIfPresent("resumeState"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension SeekRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("currentTime", currentTime)
        try writer.member("relativeTime", relativeTime)
        try writer.member("resumeState", resumeState)
        try writer.member("customData", customData)
    }
}
