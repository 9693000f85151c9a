/// `LOAD_FAILED` (media namespace): a `LOAD` failed.
public struct LoadFailedMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/loadFailed``.
    public var type: CastMessageType { .loadFailed }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The queue item that failed.
    public var itemId: Int?
    /// What failed.
    public var detailedErrorCode: DetailedErrorCode?
    /// Why it failed.
    public var reason: ErrorReason?
    /// Data from the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        itemId: Int? = nil,
        detailedErrorCode: DetailedErrorCode? = nil,
        reason: ErrorReason? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.itemId = itemId
        self.detailedErrorCode = detailedErrorCode
        self.reason = reason
        self.customData = customData
    }
}

extension LoadFailedMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            itemId: try object.decodeIfPresent("itemId"),
            detailedErrorCode: try object.decodeIfPresent("detailedErrorCode"),
            reason: try object.decodeIfPresent("reason"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension LoadFailedMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("itemId", itemId)
        try writer.member("detailedErrorCode", detailedErrorCode)
        try writer.member("reason", reason)
        try writer.member("customData", customData)
    }
}
