/// `MEDIA_STATUS` (media namespace): the media state, as a reply or a broadcast.
///
/// An empty `status` means there is no media session.
public struct MediaStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/mediaStatus``.
    public var type: CastMessageType { .mediaStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// The media sessions; normally none or one.
    public var status: [MediaStatus]

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, status: [MediaStatus]) {
        self.requestId = requestId
        self.status = status
    }
}

extension MediaStatusMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            status: try object.decode("status")
        )
    }
}

extension MediaStatusMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("status", status)
    }
}
