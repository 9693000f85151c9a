/// `QUEUE_REORDER` (media namespace): moves items of the queue.
public struct QueueReorderRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueReorder``.
    public var type: CastMessageType { .queueReorder }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The items to move, in their new order.
    public var itemIds: [Int]
    /// The item to move them before; to the end when absent.
    public var insertBefore: Int?
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
        insertBefore: Int? = nil,
        currentItemId: Int? = nil,
        currentTime: Double? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.itemIds = itemIds
        self.insertBefore = insertBefore
        self.currentItemId = currentItemId
        self.currentTime = currentTime
        self.customData = customData
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueReorderRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            itemIds: try object.decode("itemIds"),
            insertBefore: try object.decodeIfPresent("insertBefore"),
            currentItemId: try object.decodeIfPresent("currentItemId"),
            currentTime: try object.decodeIfPresent("currentTime"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueReorderRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("itemIds", itemIds)
        try writer.member("insertBefore", insertBefore)
        try writer.member("currentItemId", currentItemId)
        try writer.member("currentTime", currentTime)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
