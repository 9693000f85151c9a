/// An ad break of media (`media.breaks[]`).
public struct AdBreak: Codable, Sendable, Hashable {
    /// The id of the break.
    public var id: String
    /// The position of the break in the media, in seconds; -1 for a post-roll.
    public var position: Double
    /// The duration of the break in seconds.
    public var duration: Double?
    /// The clips of the break, in play order.
    public var breakClipIds: [String]?
    /// Whether the break was already played.
    public var isWatched: Bool?
    /// Whether the break is part of the main stream.
    public var isEmbedded: Bool?
    /// Whether the break is expanded from another.
    public var expanded: Bool?

    /// Creates a value; every optional member defaults to absent.
    public init(
        id: String,
        position: Double,
        duration: Double? = nil,
        breakClipIds: [String]? = nil,
        isWatched: Bool? = nil,
        isEmbedded: Bool? = nil,
        expanded: Bool? = nil
    ) {
        self.id = id
        self.position = position
        self.duration = duration
        self.breakClipIds = breakClipIds
        self.isWatched = isWatched
        self.isEmbedded = isEmbedded
        self.expanded = expanded
    }
}

extension AdBreak: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            id: try object.decode("id"),
            position: try object.decode("position"),
            duration: try object.decodeIfPresent("duration"),
            breakClipIds: try object.decodeIfPresent("breakClipIds"),
            isWatched: try object.decodeIfPresent("isWatched"),
            isEmbedded: try object.decodeIfPresent("isEmbedded"),
            expanded: try object.decodeIfPresent("expanded")
        )
    }
}

extension AdBreak: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("id", id)
        try writer.member("position", position)
        try writer.member("duration", duration)
        try writer.member("breakClipIds", breakClipIds)
        try writer.member("isWatched", isWatched)
        try writer.member("isEmbedded", isEmbedded)
        try writer.member("expanded", expanded)
    }
}
