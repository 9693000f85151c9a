/// `QUEUE_GET_ITEM_RANGE` (media namespace): asks for the ids of items around an item.
///
/// Exactly one of `nextCount` and `prevCount` should be above zero.
public struct QueueGetItemRangeRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueGetItemRange``.
    public var type: CastMessageType { .queueGetItemRange }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The reference item.
    public var itemId: Int
    /// How many following items.
    public var nextCount: Int?
    /// How many preceding items.
    public var prevCount: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        itemId: Int,
        nextCount: Int? = nil,
        prevCount: Int? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.itemId = itemId
        self.nextCount = nextCount
        self.prevCount = prevCount
    }
}

extension QueueGetItemRangeRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            itemId: try object.decode("itemId"),
            nextCount: try object.decodeIfPresent("nextCount"),
            prevCount: try object.decodeIfPresent("prevCount")
        )
    }
}

extension QueueGetItemRangeRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("itemId", itemId)
        try writer.member("nextCount", nextCount)
        try writer.member("prevCount", prevCount)
    }
}
