/// `LOAD_CANCELLED` (media namespace): a `LOAD` was superseded by another request.
public struct LoadCancelledMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/loadCancelled``.
    public var type: CastMessageType { .loadCancelled }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The queue item whose load was cancelled.
    public var itemId: Int?
    /// Data from the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        itemId: Int? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.itemId = itemId
        self.customData = customData
    }
}

extension LoadCancelledMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            itemId: try object.decodeIfPresent("itemId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension LoadCancelledMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("itemId", itemId)
        try writer.member("customData", customData)
    }
}
