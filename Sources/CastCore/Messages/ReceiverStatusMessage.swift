/// `RECEIVER_STATUS` (receiver namespace): the receiver state, as a reply or a broadcast.
package struct ReceiverStatusMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/receiverStatus``.
    package var type: CastMessageType { .receiverStatus }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    package var requestID: Int?
    /// The receiver state.
    package var status: ReceiverStatus
    /// Members this version does not model, as received; written back after the others.
    package var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    package init(requestID: Int? = nil, status: ReceiverStatus, unknownMembers: [String: JSONValue] = [:]) {
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

extension ReceiverStatusMessage: TokenDecodable {
    package init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        let requestID: Int? = try object.decodeIfPresent("requestId")
        object.skip("type")
        self.init(requestID: requestID, status: try object.decode("status"))
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension ReceiverStatusMessage: TokenEncodableObject {
    package func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestID)
        try writer.member("status", status)
        try writer.unknownMembers(unknownMembers)
    }
}
