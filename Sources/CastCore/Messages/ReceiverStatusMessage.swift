/// `RECEIVER_STATUS` (receiver namespace): the receiver state, as a reply or a broadcast.
public struct ReceiverStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/receiverStatus``.
    public var type: CastMessageType { .receiverStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The receiver state.
    public var status: ReceiverStatus

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, status: ReceiverStatus) {
        self.requestId = requestId
        self.status = status
    }
}

extension ReceiverStatusMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            status: try object.decode("status")
        )
    }
}

extension ReceiverStatusMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("status", status)
    }
}
