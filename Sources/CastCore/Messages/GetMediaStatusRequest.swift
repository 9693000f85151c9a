/// `GET_STATUS` on the media namespace: asks for a `MEDIA_STATUS`.
public struct GetMediaStatusRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/getStatus``.
    public var type: CastMessageType { .getStatus }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, when known.
    public var mediaSessionId: Int?
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int? = nil,
        sessionId: String? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.customData = customData
    }
}

extension GetMediaStatusRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decodeIfPresent("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension GetMediaStatusRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("customData", customData)
    }
}
