/// The state of a receiver (`status` of `RECEIVER_STATUS`).
public struct ReceiverStatus: Codable, Sendable, Hashable {
    /// The running applications (usually none or one).
    public var applications: [ReceiverApplication]?
    /// Whether the device is the active TV input (HDMI-CEC).
    public var isActiveInput: Bool?
    /// Whether the TV is in standby (HDMI-CEC).
    public var isStandBy: Bool?
    /// The user equaliser settings.
    public var userEq: JSONValue?
    /// The device volume.
    public var volume: DeviceVolume?
    /// Members this version does not model, as received (newer firmware sends `version`);
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        applications: [ReceiverApplication]? = nil,
        isActiveInput: Bool? = nil,
        isStandBy: Bool? = nil,
        userEq: JSONValue? = nil,
        volume: DeviceVolume? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.applications = applications
        self.isActiveInput = isActiveInput
        self.isStandBy = isStandBy
        self.userEq = userEq
        self.volume = volume
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case applications, isActiveInput, isStandBy, userEq, volume
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension ReceiverStatus: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            applications: try object.decodeIfPresent("applications"),
            isActiveInput: try object.decodeIfPresent("isActiveInput"),
            isStandBy: try object.decodeIfPresent("isStandBy"),
            userEq: try object.decodeIfPresent("userEq"),
            volume: try object.decodeIfPresent("volume")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension ReceiverStatus: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("applications", applications)
        try writer.member("isActiveInput", isActiveInput)
        try writer.member("isStandBy", isStandBy)
        try writer.member("userEq", userEq)
        try writer.member("volume", volume)
        try writer.unknownMembers(unknownMembers)
    }
}
