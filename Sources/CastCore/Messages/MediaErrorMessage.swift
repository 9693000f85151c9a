/// `ERROR` (media namespace): a media error.
public struct MediaErrorMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/error``.
    public var type: CastMessageType { .error }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// What failed.
    public var detailedErrorCode: DetailedErrorCode?
    /// Why it failed.
    public var reason: ErrorReason?
    /// The queue item concerned.
    public var itemId: Int?
    /// Data from the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        detailedErrorCode: DetailedErrorCode? = nil,
        reason: ErrorReason? = nil,
        itemId: Int? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.detailedErrorCode = detailedErrorCode
        self.reason = reason
        self.itemId = itemId
        self.customData = customData
    }
}

extension MediaErrorMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            detailedErrorCode: try object.decodeIfPresent("detailedErrorCode"),
            reason: try object.decodeIfPresent("reason"),
            itemId: try object.decodeIfPresent("itemId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension MediaErrorMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("detailedErrorCode", detailedErrorCode)
        try writer.member("reason", reason)
        try writer.member("itemId", itemId)
        try writer.member("customData", customData)
    }
}
