/// `QUEUE_INSERT` (media namespace): inserts items into the queue.
public struct QueueInsertRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueInsert``.
    public var type: CastMessageType { .queueInsert }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The items to insert, without item ids.
    public var items: [QueueItem]
    /// The item to insert before; appends when absent.
    public var insertBefore: Int?
    /// The index among the inserted items of the one to make current.
    public var currentItemIndex: Int?
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
        items: [QueueItem],
        insertBefore: Int? = nil,
        currentItemIndex: Int? = nil,
        currentItemId: Int? = nil,
        currentTime: Double? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.items = items
        self.insertBefore = insertBefore
        self.currentItemIndex = currentItemIndex
        self.currentItemId = currentItemId
        self.currentTime = currentTime
        self.customData = customData
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueInsertRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            items: try object.decode("items"),
            insertBefore: try object.decodeIfPresent("insertBefore"),
            currentItemIndex: try object.decodeIfPresent("currentItemIndex"),
            currentItemId: try object.decodeIfPresent("currentItemId"),
            currentTime: try object.decodeIfPresent("currentTime"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueInsertRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("items", items)
        try writer.member("insertBefore", insertBefore)
        try writer.member("currentItemIndex", currentItemIndex)
        try writer.member("currentItemId", currentItemId)
        try writer.member("currentTime", currentTime)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
