/// `QUEUE_ITEM_IDS` (media namespace): the ids of all queue items.
public struct QueueItemIdsMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueItemIds``.
    public var type: CastMessageType { .queueItemIds }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The item ids in queue order.
    public var itemIds: [Int]
    /// The queue sequence number.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        itemIds: [Int],
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.itemIds = itemIds
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueItemIdsMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            itemIds: try object.decode("itemIds"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueItemIdsMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("itemIds", itemIds)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
