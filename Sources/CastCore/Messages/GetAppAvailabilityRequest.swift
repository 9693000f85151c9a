/// `GET_APP_AVAILABILITY` (receiver namespace): asks which applications can run.
public struct GetAppAvailabilityRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/getAppAvailability``.
    public var type: CastMessageType { .getAppAvailability }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The application ids to check.
    public var appId: [String]

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, appId: [String]) {
        self.requestId = requestId
        self.appId = appId
    }
}

extension GetAppAvailabilityRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            appId: try object.decode("appId")
        )
    }
}

extension GetAppAvailabilityRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("appId", appId)
    }
}
