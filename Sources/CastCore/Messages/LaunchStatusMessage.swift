/// `LAUNCH_STATUS` (receiver namespace): a launch waits for the user on the receiver.
public struct LaunchStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/launchStatus``.
    public var type: CastMessageType { .launchStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The request id of the launch, when sent instead of `requestId`.
    public var launchRequestId: Int?
    /// The progress of the launch.
    public var status: LaunchAuthorizationStatus?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        launchRequestId: Int? = nil,
        status: LaunchAuthorizationStatus? = nil
    ) {
        self.requestId = requestId
        self.launchRequestId = launchRequestId
        self.status = status
    }
}

extension LaunchStatusMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            launchRequestId: try object.decodeIfPresent("launchRequestId"),
            status: try object.decodeIfPresent("status")
        )
    }
}

extension LaunchStatusMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("launchRequestId", launchRequestId)
        try writer.member("status", status)
    }
}
