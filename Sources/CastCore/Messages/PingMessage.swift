/// `PING` (`tp.heartbeat`): asks the peer to answer `PONG`.
///
/// pychromecast adds a request id; other senders send `{"type":"PING"}`.
public struct PingMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/ping``.
    public var type: CastMessageType { .ping }

    /// A request id, as pychromecast sends.
    public var requestId: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil) {
        self.requestId = requestId
    }
}

extension PingMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId")
        )
    }
}

extension PingMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
    }
}
