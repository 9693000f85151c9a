/// `QUEUE_CHANGE` (media namespace): the queue changed.
public struct QueueChangeMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueChange``.
    public var type: CastMessageType { .queueChange }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// What changed.
    public var changeType: QueueChangeType
    /// The items concerned.
    public var itemIds: [Int]?
    /// For `INSERT`, the item the new items were inserted before.
    public var insertBefore: Int?
    /// For `UPDATE`, the items in their new order.
    public var reorderItemIds: [Int]?
    /// The new queue sequence number.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        changeType: QueueChangeType,
        itemIds: [Int]? = nil,
        insertBefore: Int? = nil,
        reorderItemIds: [Int]? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.changeType = changeType
        self.itemIds = itemIds
        self.insertBefore = insertBefore
        self.reorderItemIds = reorderItemIds
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueChangeMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            changeType: try object.decode("changeType"),
            itemIds: try object.decodeIfPresent("itemIds"),
            insertBefore: try object.decodeIfPresent("insertBefore"),
            reorderItemIds: try object.decodeIfPresent("reorderItemIds"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueChangeMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("changeType", changeType)
        try writer.member("itemIds", itemIds)
        try writer.member("insertBefore", insertBefore)
        try writer.member("reorderItemIds", reorderItemIds)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
