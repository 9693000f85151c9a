/// `LOAD` (media namespace): loads media or a queue into the receiver application.
///
/// The members of ``data`` are written at the top level of the message, next to `requestId`
/// and `sessionId`, as receivers expect.
package struct LoadRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/load``.
    package var type: CastMessageType { .load }

    /// The request id the reply will echo.
    package var requestID: Int?
    /// The receiver application session (sent by some senders; not required).
    package var sessionID: String?
    /// What to load and how.
    package var data: LoadRequestData

    /// Creates a load request.
    package init(requestID: Int? = nil, sessionID: String? = nil, data: LoadRequestData) {
        self.requestID = requestID
        self.sessionID = sessionID
        self.data = data
    }

    private enum CodingKeys: String, CodingKey {
        case requestID = "requestId"
        case sessionID = "sessionId"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestID = try container.decodeIfPresent(Int.self, forKey: .requestID)
        sessionID = try container.decodeIfPresent(String.self, forKey: .sessionID)
        data = try LoadRequestData(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(requestID, forKey: .requestID)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try data.encode(to: encoder)
    }
}

extension LoadRequest: TokenDecodable {
    package init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestID: try object.decodeIfPresent("requestId"),
            sessionID: try object.decodeIfPresent("sessionId"),
            data: try LoadRequestData(token: index, in: document)
        )
    }
}

extension LoadRequest: TokenEncodableObject {
    package func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestID)
        try writer.member("sessionId", sessionID)
        try data.writeMembers(to: &writer)
    }
}
