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
