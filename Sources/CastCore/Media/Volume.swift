/// A volume level and mute state (`volume`): a stream volume in `MEDIA_STATUS`, or a change in `SET_VOLUME`.
///
/// A `SET_VOLUME` request carries either `level` or `muted`.
public struct Volume: Codable, Sendable, Hashable {
    /// The level from 0 to 1.
    public var level: Double?
    /// Whether the sound is muted.
    public var muted: Bool?
    /// Members this version does not model, as received (some apps echo `controlType` and
    /// `stepInterval`); written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(level: Double? = nil, muted: Bool? = nil, unknownMembers: [String: JSONValue] = [:]) {
        self.level = level
        self.muted = muted
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case level, muted
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension Volume: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            level: try object.decodeIfPresent("level"),
            muted: try object.decodeIfPresent("muted")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension Volume: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("level", level)
        try writer.member("muted", muted)
        try writer.unknownMembers(unknownMembers)
    }
}
