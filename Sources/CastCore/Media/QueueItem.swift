/// An item of a media queue (`items[]`).
public struct QueueItem: Codable, Sendable, Hashable {
    /// The id the receiver gave the item; absent when inserting.
    public var itemId: Int?
    /// The media of the item.
    public var media: MediaInformation?
    /// Whether playback starts when the item becomes current.
    public var autoplay: Bool?
    /// Where playback starts, in seconds.
    public var startTime: Double?
    /// How long to play the item, in seconds.
    public var playbackDuration: Double?
    /// How many seconds before the end of the previous item to preload this one.
    public var preloadTime: Double?
    /// The tracks to enable.
    public var activeTrackIds: [Int]?
    /// Data for the receiver application.
    public var customData: JSONValue?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        itemId: Int? = nil,
        media: MediaInformation? = nil,
        autoplay: Bool? = nil,
        startTime: Double? = nil,
        playbackDuration: Double? = nil,
        preloadTime: Double? = nil,
        activeTrackIds: [Int]? = nil,
        customData: JSONValue? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.itemId = itemId
        self.media = media
        self.autoplay = autoplay
        self.startTime = startTime
        self.playbackDuration = playbackDuration
        self.preloadTime = preloadTime
        self.activeTrackIds = activeTrackIds
        self.customData = customData
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case itemId, media, autoplay, startTime, playbackDuration, preloadTime, activeTrackIds, customData
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension QueueItem: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            itemId: try object.decodeIfPresent("itemId"),
            media: try object.decodeIfPresent("media"),
            autoplay: try object.decodeIfPresent("autoplay"),
            startTime: try object.decodeIfPresent("startTime"),
            playbackDuration: try object.decodeIfPresent("playbackDuration"),
            preloadTime: try object.decodeIfPresent("preloadTime"),
            activeTrackIds: try object.decodeIfPresent("activeTrackIds"),
            customData: try object.decodeIfPresent("customData")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension QueueItem: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("itemId", itemId)
        try writer.member("media", media)
        try writer.member("autoplay", autoplay)
        try writer.member("startTime", startTime)
        try writer.member("playbackDuration", playbackDuration)
        try writer.member("preloadTime", preloadTime)
        try writer.member("activeTrackIds", activeTrackIds)
        try writer.member("customData", customData)
        try writer.unknownMembers(unknownMembers)
    }
}
