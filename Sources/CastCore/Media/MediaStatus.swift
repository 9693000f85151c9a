/// The state of a media session (an element of `MEDIA_STATUS` `status`).
///
/// Incremental statuses may omit members such as `media`: keep the last known values.
public struct MediaStatus: Codable, Sendable, Hashable {
    /// The media session; a new one per successful LOAD.
    public var mediaSessionId: Int
    /// The media; may be omitted when unchanged.
    public var media: MediaInformation?
    /// The playback rate; 1 is normal speed.
    public var playbackRate: Double?
    /// The player state.
    public var playerState: PlayerState?
    /// Why the player is idle, when it is and the reason is known.
    public var idleReason: IdleReason?
    /// The loading state while the main state is `IDLE`.
    public var extendedStatus: ExtendedMediaStatus?
    /// The position in seconds when the status was made.
    public var currentTime: Double?
    /// The commands the receiver accepts now.
    public var supportedMediaCommands: MediaCommands?
    /// The stream volume.
    public var volume: Volume?
    /// The enabled tracks.
    public var activeTrackIds: [Int]?
    /// The current queue item.
    public var currentItemId: Int?
    /// The queue item being loaded.
    public var loadingItemId: Int?
    /// The queue item preloaded next.
    public var preloadedItemId: Int?
    /// Queue items; may be a window of the queue.
    public var items: [QueueItem]?
    /// How the queue repeats.
    public var repeatMode: RepeatMode?
    /// The description of the queue.
    public var queueData: QueueData?
    /// Where playback is inside an ad break, while one plays.
    public var breakStatus: AdBreakStatus?
    /// The seekable window of a live stream.
    public var liveSeekableRange: LiveSeekableRange?
    /// The format of the playing video.
    public var videoInfo: VideoInfo?
    /// Data from the receiver application.
    public var customData: JSONValue?
    /// The queue sequence number.
    public var sequenceNumber: Int?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        mediaSessionId: Int,
        media: MediaInformation? = nil,
        playbackRate: Double? = nil,
        playerState: PlayerState? = nil,
        idleReason: IdleReason? = nil,
        extendedStatus: ExtendedMediaStatus? = nil,
        currentTime: Double? = nil,
        supportedMediaCommands: MediaCommands? = nil,
        volume: Volume? = nil,
        activeTrackIds: [Int]? = nil,
        currentItemId: Int? = nil,
        loadingItemId: Int? = nil,
        preloadedItemId: Int? = nil,
        items: [QueueItem]? = nil,
        repeatMode: RepeatMode? = nil,
        queueData: QueueData? = nil,
        breakStatus: AdBreakStatus? = nil,
        liveSeekableRange: LiveSeekableRange? = nil,
        videoInfo: VideoInfo? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.mediaSessionId = mediaSessionId
        self.media = media
        self.playbackRate = playbackRate
        self.playerState = playerState
        self.idleReason = idleReason
        self.extendedStatus = extendedStatus
        self.currentTime = currentTime
        self.supportedMediaCommands = supportedMediaCommands
        self.volume = volume
        self.activeTrackIds = activeTrackIds
        self.currentItemId = currentItemId
        self.loadingItemId = loadingItemId
        self.preloadedItemId = preloadedItemId
        self.items = items
        self.repeatMode = repeatMode
        self.queueData = queueData
        self.breakStatus = breakStatus
        self.liveSeekableRange = liveSeekableRange
        self.videoInfo = videoInfo
        self.customData = customData
        self.sequenceNumber = sequenceNumber
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case mediaSessionId, media, playbackRate, playerState, idleReason, extendedStatus, currentTime,
            supportedMediaCommands, volume, activeTrackIds, currentItemId, loadingItemId, preloadedItemId, items,
            repeatMode, queueData, breakStatus, liveSeekableRange, videoInfo, customData, sequenceNumber
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension MediaStatus: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            mediaSessionId: try object.decode("mediaSessionId"),
            media: try object.decodeIfPresent("media"),
            playbackRate: try object.decodeIfPresent("playbackRate"),
            playerState: try object.decodeIfPresent("playerState"),
            idleReason: try object.decodeIfPresent("idleReason"),
            extendedStatus: try object.decodeIfPresent("extendedStatus"),
            currentTime: try object.decodeIfPresent("currentTime"),
            supportedMediaCommands: try object.decodeIfPresent("supportedMediaCommands"),
            volume: try object.decodeIfPresent("volume"),
            activeTrackIds: try object.decodeIfPresent("activeTrackIds"),
            currentItemId: try object.decodeIfPresent("currentItemId"),
            loadingItemId: try object.decodeIfPresent("loadingItemId"),
            preloadedItemId: try object.decodeIfPresent("preloadedItemId"),
            items: try object.decodeIfPresent("items"),
            repeatMode: try object.decodeIfPresent("repeatMode"),
            queueData: try object.decodeIfPresent("queueData"),
            breakStatus: try object.decodeIfPresent("breakStatus"),
            liveSeekableRange: try object.decodeIfPresent("liveSeekableRange"),
            videoInfo: try object.decodeIfPresent("videoInfo"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MediaStatus: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("media", media)
        try writer.member("playbackRate", playbackRate)
        try writer.member("playerState", playerState)
        try writer.member("idleReason", idleReason)
        try writer.member("extendedStatus", extendedStatus)
        try writer.member("currentTime", currentTime)
        try writer.member("supportedMediaCommands", supportedMediaCommands)
        try writer.member("volume", volume)
        try writer.member("activeTrackIds", activeTrackIds)
        try writer.member("currentItemId", currentItemId)
        try writer.member("loadingItemId", loadingItemId)
        try writer.member("preloadedItemId", preloadedItemId)
        try writer.member("items", items)
        try writer.member("repeatMode", repeatMode)
        try writer.member("queueData", queueData)
        try writer.member("breakStatus", breakStatus)
        try writer.member("liveSeekableRange", liveSeekableRange)
        try writer.member("videoInfo", videoInfo)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
        try writer.unknownMembers(unknownMembers)
    }
}
