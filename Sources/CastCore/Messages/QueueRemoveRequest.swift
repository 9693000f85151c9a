/// `QUEUE_REMOVE` (media namespace): removes items from the queue.
public struct QueueRemoveRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueRemove``.
    public var type: CastMessageType { .queueRemove }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The items to remove.
    public var itemIds: [Int]
    /// The item to make current.
    public var currentItemId: Int?
    /// Where to start the new current item, in seconds.
    public var currentTime: Double?
    /// Data for the receiver application.
    public var customData: JSONValue?
    /// The last queue sequence number seen; receivers reject stale queue edits.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        itemIds: [Int],
        currentItemId: Int? = nil,
        currentTime: Double? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.itemIds = itemIds
        self.currentItemId = currentItemId
        self.currentTime = currentTime
        self.customData = customData
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueRemoveRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            itemIds: try object.decode("itemIds"),
            currentItemId: try object.decodeIfPresent("currentItemId"),
            currentTime: try object.decodeIfPresent("currentTime"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueRemoveRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("itemIds", itemIds)
        try writer.member("currentItemId", currentItemId)
        try writer.member("currentTime", currentTime)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
