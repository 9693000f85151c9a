/// `STOP` on the receiver namespace: stops a receiver application.
public struct StopApplicationRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/stop``.
    public var type: CastMessageType { .stop }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The application session to stop.
    public var sessionId: String?

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, sessionId: String? = nil) {
        self.requestId = requestId
        self.sessionId = sessionId
    }
}

extension StopApplicationRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            sessionId: try object.decodeIfPresent("sessionId")
        )
    }
}

extension StopApplicationRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("sessionId", sessionId)
    }
}
