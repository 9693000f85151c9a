/// `LAUNCH_ERROR` (receiver namespace): a launch failed.
public struct LaunchErrorMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/launchError``.
    public var type: CastMessageType { .launchError }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// Why the launch failed.
    public var reason: LaunchErrorReason?
    /// More detail.
    public var extendedError: LaunchExtendedError?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        reason: LaunchErrorReason? = nil,
        extendedError: LaunchExtendedError? = nil
    ) {
        self.requestId = requestId
        self.reason = reason
        self.extendedError = extendedError
    }
}

extension LaunchErrorMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            reason: try object.decodeIfPresent("reason"),
            extendedError: try object.decodeIfPresent("extendedError")
        )
    }
}

extension LaunchErrorMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("reason", reason)
        try writer.member("extendedError", extendedError)
    }
}
