/// `SET_VOLUME` on the media namespace: changes the stream volume.
public struct SetStreamVolumeRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/setVolume``.
    public var type: CastMessageType { .setVolume }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The change: either `level` or `muted`.
    public var volume: Volume
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        volume: Volume,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.volume = volume
        self.customData = customData
    }
}

extension SetStreamVolumeRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            volume: try object.decode("volume"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension SetStreamVolumeRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("volume", volume)
        try writer.member("customData", customData)
    }
}
