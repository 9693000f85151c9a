/// `PONG` (`tp.heartbeat`): answers a `PING`.
public struct PongMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/pong``.
    public var type: CastMessageType { .pong }

    /// A request id, rarely present.
    public var requestId: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil) {
        self.requestId = requestId
    }
}

extension PongMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId")
        )
    }
}

extension PongMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
    }
}
