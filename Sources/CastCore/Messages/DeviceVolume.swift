/// The device volume in `RECEIVER_STATUS` (`status.volume`).
public struct DeviceVolume: Codable, Sendable, Hashable {
    /// How the volume can be controlled.
    public var controlType: VolumeControlType?
    /// The level from 0 to 1.
    public var level: Double?
    /// Whether the device is muted.
    public var muted: Bool?
    /// The step of volume buttons, e.g. 0.05.
    public var stepInterval: Double?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        controlType: VolumeControlType? = nil,
        level: Double? = nil,
        muted: Bool? = nil,
        stepInterval: Double? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.controlType = controlType
        self.level = level
        self.muted = muted
        self.stepInterval = stepInterval
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case controlType, level, muted, stepInterval
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension DeviceVolume: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            controlType: try object.decodeIfPresent("controlType"),
            level: try object.decodeIfPresent("level"),
            muted: try object.decodeIfPresent("muted"),
            stepInterval: try object.decodeIfPresent("stepInterval")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension DeviceVolume: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("controlType", controlType)
        try writer.member("level", level)
        try writer.member("muted", muted)
        try writer.member("stepInterval", stepInterval)
        try writer.unknownMembers(unknownMembers)
    }
}
