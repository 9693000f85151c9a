/// `QUEUE_ITEMS` (media namespace): queue items asked for with `QUEUE_GET_ITEMS`.
public struct QueueItemsMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueItems``.
    public var type: CastMessageType { .queueItems }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The items.
    public var items: [QueueItem]
    /// The queue sequence number.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        items: [QueueItem],
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.items = items
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueItemsMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            items: try object.decode("items"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueItemsMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("items", items)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
