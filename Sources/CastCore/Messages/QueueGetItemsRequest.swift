/// `QUEUE_GET_ITEMS` (media namespace): asks for queue items by id.
public struct QueueGetItemsRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueGetItems``.
    public var type: CastMessageType { .queueGetItems }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The items wanted.
    public var itemIds: [Int]

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        itemIds: [Int]
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.itemIds = itemIds
    }
}

extension QueueGetItemsRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            itemIds: try object.decode("itemIds")
        )
    }
}

extension QueueGetItemsRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("itemIds", itemIds)
    }
}
