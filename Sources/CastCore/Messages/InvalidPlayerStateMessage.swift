/// `INVALID_PLAYER_STATE` (media namespace): a request is not valid in the player's state, e.g. `PAUSE` while idle.
public struct InvalidPlayerStateMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/invalidPlayerState``.
    public var type: CastMessageType { .invalidPlayerState }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// Data from the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, customData: JSONValue? = nil) {
        self.requestId = requestId
        self.customData = customData
    }
}

extension InvalidPlayerStateMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension InvalidPlayerStateMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("customData", customData)
    }
}
