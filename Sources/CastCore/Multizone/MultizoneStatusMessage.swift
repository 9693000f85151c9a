/// `MULTIZONE_STATUS` (multizone namespace): the members of the device's speaker group.
package struct MultizoneStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/multizoneStatus``.
    package var type: CastMessageType { .multizoneStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    package var requestID: Int?
    /// The group's devices.
    package var status: MultizoneStatus
    /// Members this version does not model, as received; written back after the others.
    package var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    package init(requestID: Int? = nil, status: MultizoneStatus, unknownMembers: [String: JSONValue] = [:]) {
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
}

extension MultizoneStatusMessage: TokenDecodable {
    package init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        let requestID: Int? = try object.decodeIfPresent("requestId")
        object.skip("type")
        self.init(requestID: requestID, status: try object.decode("status"))
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MultizoneStatusMessage: TokenEncodableObject {
    package func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestID)
        try writer.member("status", status)
        try writer.unknownMembers(unknownMembers)
    }
}
