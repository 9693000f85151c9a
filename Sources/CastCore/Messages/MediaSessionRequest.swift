/// A media command that acts on a session and carries nothing else: `PLAY`, `PAUSE`, `STOP`, `SKIP_AD`, `QUEUE_NEXT`, `QUEUE_PREV` or `QUEUE_GET_ITEM_IDS`.
package struct MediaSessionRequest: CastJSONMessage, Hashable {
    /// The command.
    package var type: CastMessageType
    /// The request id the reply will echo.
    package var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    package var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    package var sessionId: String?
    /// Data for the receiver application.
    package var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    package init(
        type: CastMessageType,
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        customData: JSONValue? = nil
    ) {
        self.type = type
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.customData = customData
    }

    /// `PLAY`: resumes playback.
    package static func play(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .play, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `PAUSE`: pauses playback.
    package static func pause(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .pause, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `STOP`: stops playback and ends the media session.
    package static func stop(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .stop, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `SKIP_AD`: skips the playing ad.
    package static func skipAd(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .skipAd, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `QUEUE_NEXT`: plays the next queue item.
    package static func queueNext(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queueNext, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `QUEUE_PREV`: plays the previous queue item.
    package static func queuePrev(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queuePrev, requestId: requestId, mediaSessionId: mediaSessionId)
    }

    /// `QUEUE_GET_ITEM_IDS`: asks for the ids of all queue items.
    package static func queueGetItemIds(mediaSessionId: Int, requestId: Int? = nil) -> MediaSessionRequest {
        MediaSessionRequest(type: .queueGetItemIds, requestId: requestId, mediaSessionId: mediaSessionId)
    }
}

extension MediaSessionRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            type: try object.decode("type"),
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension MediaSessionRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("customData", customData)
    }

    func write(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        writer.beginObject()
        try writer.member("type", type)
        try writeMembers(to: &writer)
        writer.endObject()
    }
}
