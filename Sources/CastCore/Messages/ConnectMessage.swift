/// `CONNECT` (`tp.connection`): opens a virtual connection to an endpoint.
///
/// `{"type":"CONNECT"}` alone is accepted by real devices.
public struct ConnectMessage: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/connect``.
    public var type: CastMessageType { .connect }

    /// The origin; pychromecast sends `{}`.
    public var origin: JSONValue?
    /// The sender's user agent, e.g. `PyChromecast`.
    public var userAgent: String?
    /// Describes the sender.
    public var senderInfo: SenderInfo?
    /// The kind of virtual connection; strong when absent.
    public var connType: VirtualConnectionType?
    /// The protocol version offered; a receiver then answers `CONNECTED`.
    public var protocolVersion: Int?
    /// The protocol versions offered.
    public var protocolVersionList: [Int]?

    /// Creates a value; every optional member defaults to absent.
    public init(
        origin: JSONValue? = nil,
        userAgent: String? = nil,
        senderInfo: SenderInfo? = nil,
        connType: VirtualConnectionType? = nil,
        protocolVersion: Int? = nil,
        protocolVersionList: [Int]? = nil
    ) {
        self.origin = origin
        self.userAgent = userAgent
        self.senderInfo = senderInfo
        self.connType = connType
        self.protocolVersion = protocolVersion
        self.protocolVersionList = protocolVersionList
    }

    /// Always `nil`: `CONNECT` carries no request id.
    public var requestId: Int? { nil }
}

extension ConnectMessage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            origin: try object.decodeIfPresent("origin"),
            userAgent: try object.decodeIfPresent("userAgent"),
            senderInfo: try object.decodeIfPresent("senderInfo"),
            connType: try object.decodeIfPresent("connType"),
            protocolVersion: try object.decodeIfPresent("protocolVersion"),
            protocolVersionList: try object.decodeIfPresent("protocolVersionList")
        )
    }
}

extension ConnectMessage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("origin", origin)
        try writer.member("userAgent", userAgent)
        try writer.member("senderInfo", senderInfo)
        try writer.member("connType", connType)
        try writer.member("protocolVersion", protocolVersion)
        try writer.member("protocolVersionList", protocolVersionList)
    }
}
