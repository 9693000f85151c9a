/// A media command that acts on a session and carries nothing else: `PLAY`, `PAUSE`, `STOP`, `SKIP_AD`, `QUEUE_NEXT`, `QUEUE_PREV` or `QUEUE_GET_ITEM_IDS`.
package struct MediaSessionRequest: CastJSONMessage, Hashable {
    /// The command.
    package var type: CastMessageType
    /// The request id the reply will echo.
    package var requestID: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    package var mediaSessionID: Int
    /// The receiver application session (sent by some senders; not required).
    package var sessionID: String?
    /// Data for the receiver application.
    package var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    package init(
        type: CastMessageType,
        requestID: Int? = nil,
        mediaSessionID: Int,
        sessionID: String? = nil,
        customData: JSONValue? = nil
    ) {
        self.type = type
        self.requestID = requestID
        self.mediaSessionID = mediaSessionID
        self.sessionID = sessionID
        self.customData = customData
    }

    /// `PLAY`: resumes playback.
    package static func play(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .play, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `PAUSE`: pauses playback.
    package static func pause(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .pause, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `STOP`: stops playback and ends the media session.
    package static func stop(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .stop, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `SKIP_AD`: skips the playing ad.
    package static func skipAd(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .skipAd, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `QUEUE_NEXT`: plays the next queue item.
    package static func queueNext(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queueNext, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `QUEUE_PREV`: plays the previous queue item.
    package static func queuePrev(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queuePrev, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// `QUEUE_GET_ITEM_IDS`: asks for the ids of all queue items.
    package static func queueGetItemIDs(mediaSessionID: Int, requestID: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queueGetItemIDs, requestID: requestID, mediaSessionID: mediaSessionID)
    }

    /// The members by their names on the wire.
    private enum CodingKeys: String, CodingKey {
        case type
        case requestID = "requestId"
        case mediaSessionID = "mediaSessionId"
        case sessionID = "sessionId"
        case customData
    }
}

extension MediaSessionRequest: TokenDecodable {
    package init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            type: try object.decode("type"),
            requestID: try object.decodeIfPresent("requestId"),
            mediaSessionID: try object.decode("mediaSessionId"),
            sessionID: try object.decodeIfPresent("sessionId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension MediaSessionRequest: TokenEncodableObject {
    package func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestID)
        try writer.member("mediaSessionId", mediaSessionID)
        try writer.member("sessionId", sessionID)
        try writer.member("customData", customData)
    }

    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        writer.beginObject()
        try writer.member("type", type)
        try writeMembers(to: &writer)
        writer.endObject()
    }
}
