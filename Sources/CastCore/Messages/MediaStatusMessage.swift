/// `MEDIA_STATUS` (media namespace): the media state, as a reply or a broadcast.
///
/// An empty `status` means there is no media session.
package struct MediaStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/mediaStatus``.
    package var type: CastMessageType { .mediaStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    package var requestID: Int?
    /// The media sessions; normally none or one.
    package var status: [MediaStatus]
    /// Members this version does not model, as received; written back after the others.
    package var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    package init(requestID: Int? = nil, status: [MediaStatus], unknownMembers: [String: JSONValue] = [:]) {
        self.requestID = requestID
        self.status = status
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case requestID = "requestId"
        case status
    }

    /// The members modelled here, and the type member.
    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue) + ["type", "responseType"])

    /// Reads the same forms as the token path: `status` as an array or one object, or the
    /// status members at the top level.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestID = try container.decodeIfPresent(Int.self, forKey: .requestID)
        if !container.contains(.status),
            try decoder.container(keyedBy: AnyCodingKey.self).contains(AnyCodingKey("mediaSessionId"))
        {
            status = [try MediaStatus(from: decoder)]
        } else if (try? container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .status)) != nil {
            status = [try container.decode(MediaStatus.self, forKey: .status)]
        } else {
            status = try container.decode([MediaStatus].self, forKey: .status)
        }
    }
}

extension MediaStatusMessage: TokenDecodable {
    /// Reads `status` as an array, as a single object, or, when a receiver app puts the
    /// status members at the top level of the message (no `status`, a `mediaSessionId`),
    /// from the message itself.
    package init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        let requestID: Int? = try object.decodeIfPresent("requestId")
        object.skip("type")
        guard let member = object.find("status") else {
            guard object.find("mediaSessionId") != nil else { throw document.missing("status", inObjectAt: index) }
            var entry = try MediaStatus(token: index, in: document)
            for name in Self.knownMembers { entry.unknownMembers[name] = nil }
            self.init(requestID: requestID, status: [entry])
            return
        }
        let value = member + 1
        let status: [MediaStatus]
        switch document.tokens[value].kind {
        case .array: status = try [MediaStatus](token: value, in: document)
        case .object: status = [try MediaStatus(token: value, in: document)]
        case .null: throw document.missing("status", inObjectAt: index)
        default: throw document.wrongType("an array", at: value)
        }
        self.init(requestID: requestID, status: status)
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MediaStatusMessage: TokenEncodableObject {
    package func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestID)
        try writer.member("status", status)
        try writer.unknownMembers(unknownMembers)
    }
}
