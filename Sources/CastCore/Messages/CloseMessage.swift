/// `CLOSE` (`tp.connection`): closes a virtual connection.
public struct CloseMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/close``.
    public var type: CastMessageType { .close }

    /// Why the connection is closed.
    public var reasonCode: CloseReason?

    /// Creates a value; every optional member defaults to absent.
    public init(reasonCode: CloseReason? = nil) {
        self.reasonCode = reasonCode
    }

    /// Always `nil`: `CLOSE` carries no request id.
    public var requestId: Int? { nil }
}

extension CloseMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            reasonCode: try object.decodeIfPresent("reasonCode")
        )
    }
}

extension CloseMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("reasonCode", reasonCode)
    }
}
