/// `LOAD` (media namespace): loads media or a queue into the receiver application.
///
/// The members of ``data`` are written at the top level of the message, next to `requestId`
/// and `sessionId`, as receivers expect.
package struct LoadRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/load``.
    package var type: CastMessageType { .load }

    /// The request id the reply will echo.
    package var requestId: Int?
    /// The receiver application session (sent by some senders; not required).
    package var sessionId: String?
    /// What to load and how.
    package var data: LoadRequestData

    /// Creates a load request.
    package init(requestId: Int? = nil, sessionId: String? = nil, data: LoadRequestData) {
        self.requestId = requestId
        self.sessionId = sessionId
        self.data = data
    }

    private enum CodingKeys: String, CodingKey {
        case requestId
        case sessionId
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestId = try container.decodeIfPresent(Int.self, forKey: .requestId)
        sessionId = try container.decodeIfPresent(String.self, forKey: .sessionId)
        data = try LoadRequestData(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(requestId, forKey: .requestId)
        try container.encodeIfPresent(sessionId, forKey: .sessionId)
        try data.encode(to: encoder)
    }
}

extension LoadRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            data: try LoadRequestData(token: index, in: document)
        )
    }
}

extension LoadRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("sessionId", sessionId)
        try data.writeMembers(to: &writer)
    }
}
