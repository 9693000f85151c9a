/// The devices of a speaker group as its members see them (`status` of `MULTIZONE_STATUS`).
///
/// Even a speaker that is in no group sends one, listing itself.
public struct MultizoneStatus: Codable, Sendable, Hashable {
    /// The devices of the group.
    public var devices: [MultizoneDevice]
    /// Whether the group plays different channels on different members.
    public var isMultichannel: Bool?
    /// Members this version does not model, as received; written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        devices: [MultizoneDevice],
        isMultichannel: Bool? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.devices = devices
        self.isMultichannel = isMultichannel
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case devices, isMultichannel
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension MultizoneStatus: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            devices: try object.decodeIfPresent("devices") ?? [],
            isMultichannel: try object.decodeIfPresent("isMultichannel")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MultizoneStatus: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("devices", devices)
        try writer.member("isMultichannel", isMultichannel)
        try writer.unknownMembers(unknownMembers)
    }
}
