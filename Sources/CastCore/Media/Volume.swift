/// A volume level and mute state (`volume`): a stream volume in `MEDIA_STATUS`, or a change in `SET_VOLUME`.
///
/// A `SET_VOLUME` request carries either `level` or `muted`.
public struct Volume: Codable, Sendable, Hashable {
    /// The level from 0 to 1.
    public var level: Double?
    /// Whether the sound is muted.
    public var muted: Bool?

    /// Creates a value; every optional member defaults to absent.
    public init(level: Double? = nil, muted: Bool? = nil) {
        self.level = level
        self.muted = muted
    }
}

extension Volume: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            level: try object.decodeIfPresent("level"),
            muted: try object.decodeIfPresent("muted")
        )
    }
}

extension Volume: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("level", level)
        try writer.member("muted", muted)
    }
}
