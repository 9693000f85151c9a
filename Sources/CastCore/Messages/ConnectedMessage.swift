/// `CONNECTED` (`tp.connection`): confirms a `CONNECT` that offered a protocol version.
public struct ConnectedMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/connected``.
    public var type: CastMessageType { .connected }

    /// The protocol version chosen.
    public var protocolVersion: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(protocolVersion: Int? = nil) {
        self.protocolVersion = protocolVersion
    }

    /// Always `nil`: `CONNECTED` carries no request id.
    public var requestId: Int? { nil }
}

extension ConnectedMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            protocolVersion: try object.decodeIfPresent("protocolVersion")
        )
    }
}

extension ConnectedMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("protocolVersion", protocolVersion)
    }
}
