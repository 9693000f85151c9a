/// The reply to `GET_APP_AVAILABILITY`, which real devices mark with `responseType` rather than `type`.
public struct AppAvailabilityResponse: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/getAppAvailability``.
    public var type: CastMessageType { .getAppAvailability }
    public static var typeMember: String { "responseType" }

    /// The id of the request this answers; 0 or absent for unsolicited messages.
    public var requestId: Int?
    /// Availability by application id.
    public var availability: [String: AppAvailability]

    /// Creates a value; every optional member defaults to absent.
    public init(requestId: Int? = nil, availability: [String: AppAvailability]) {
        self.requestId = requestId
        self.availability = availability
    }
}

extension AppAvailabilityResponse: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            availability: try object.decode("availability")
        )
    }
}

extension AppAvailabilityResponse: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("availability", availability)
    }
}
