/// `SET_PLAYBACK_RATE` (media namespace): changes the playback rate.
///
/// Carries either `playbackRate` or `relativePlaybackRate`.
public struct SetPlaybackRateRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/setPlaybackRate``.
    public var type: CastMessageType { .setPlaybackRate }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The new rate; 1 is normal speed.
    public var playbackRate: Double?
    /// A factor applied to the current rate.
    public var relativePlaybackRate: Double?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        playbackRate: Double? = nil,
        relativePlaybackRate: Double? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.playbackRate = playbackRate
        self.relativePlaybackRate = relativePlaybackRate
        self.customData = customData
    }
}

extension SetPlaybackRateRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            playbackRate: try object.decodeIfPresent("playbackRate"),
            relativePlaybackRate: try object.decodeIfPresent("relativePlaybackRate"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension SetPlaybackRateRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("playbackRate", playbackRate)
        try writer.member("relativePlaybackRate", relativePlaybackRate)
        try writer.member("customData", customData)
    }
}
