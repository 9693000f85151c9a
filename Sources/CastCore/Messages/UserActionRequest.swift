/// `USER_ACTION` (media namespace): reports a user action such as `LIKE`.
public struct UserActionRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/userAction``.
    public var type: CastMessageType { .userAction }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The action.
    public var userAction: UserAction
    /// Whether the action is withdrawn.
    public var clear: Bool?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        userAction: UserAction,
        clear: Bool? = nil,
        customData: JSONValue? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.userAction = userAction
        self.clear = clear
        self.customData = customData
    }
}

extension UserActionRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            userAction: try object.decode("userAction"),
            clear: try object.decodeIfPresent("clear"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension UserActionRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("userAction", userAction)
        try writer.member("clear", clear)
        try writer.member("customData", customData)
    }
}
