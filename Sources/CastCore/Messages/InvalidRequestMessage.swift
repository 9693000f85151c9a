/// `INVALID_REQUEST` (receiver and media namespaces): a request was rejected.
public struct InvalidRequestMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/invalidRequest``.
    public var type: CastMessageType { .invalidRequest }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// Why the request was rejected.
    public var reason: ErrorReason?
    /// Data from the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        reason: ErrorReason? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.reason = reason
        self.customData = customData
    }
}

extension InvalidRequestMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            reason: try object.decodeIfPresent("reason"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension InvalidRequestMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("reason", reason)
        try writer.member("customData", customData)
    }
}
