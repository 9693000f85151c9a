/// `GET_STATUS` on the receiver namespace: asks for a `RECEIVER_STATUS`.
public struct GetReceiverStatusRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/getStatus``.
    public var type: CastMessageType { .getStatus }

    /// The request id the reply will echo.
    public var requestId: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil) {
        self.requestId = requestId
    }
}

extension GetReceiverStatusRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId")
        )
    }
}

extension GetReceiverStatusRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
    }
}
