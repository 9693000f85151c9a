/// One member of a speaker group, or the device itself, in `MULTIZONE_STATUS`
/// (`status.devices[]`).
public struct MultizoneDevice: Codable, Sendable, Hashable {
    /// The member's device id (dashed UUID form).
    public var deviceId: String
    /// The member's friendly name.
    public var name: String?
    /// The member's capability bit mask (the mDNS `ca` bits).
    public var capabilities: Int?
    /// The member's own volume.
    public var volume: Volume?
    /// Members this version does not model, as received; written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        deviceId: String,
        name: String? = nil,
        capabilities: Int? = nil,
        volume: Volume? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.deviceId = deviceId
        self.name = name
        self.capabilities = capabilities
        self.volume = volume
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case deviceId, name, capabilities, volume
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension MultizoneDevice: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            deviceId: try object.decode("deviceId"),
            name: try object.decodeIfPresent("name"),
            capabilities: try object.decodeIfPresent("capabilities"),
            volume: try object.decodeIfPresent("volume")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MultizoneDevice: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("deviceId", deviceId)
        try writer.member("name", name)
        try writer.member("capabilities", capabilities)
        try writer.member("volume", volume)
        try writer.unknownMembers(unknownMembers)
    }
}
