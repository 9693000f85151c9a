/// `QUEUE_UPDATE` (media namespace): jumps in the queue, updates items, or changes repeat and shuffle.
///
/// pychromecast and Android senders send next/previous as `jump` of +1/-1.
public struct QueueUpdateRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueUpdate``.
    public var type: CastMessageType { .queueUpdate }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The media session, from the latest `MEDIA_STATUS`.
    public var mediaSessionId: Int
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The item to jump to.
    public var currentItemId: Int?
    /// A relative jump, e.g. 1 for next or -1 for previous.
    public var jump: Int?
    /// Items with new contents.
    public var items: [QueueItem]?
    /// A new repeat mode.
    public var repeatMode: RepeatMode?
    /// Whether to shuffle the queue.
    public var shuffle: Bool?
    /// Where to start the new current item, in seconds.
    public var currentTime: Double?
    /// Data for the receiver application.
    public var customData: JSONValue?
    /// The last queue sequence number seen; receivers reject stale queue edits.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        mediaSessionId: Int,
        sessionId: String? = nil,
        currentItemId: Int? = nil,
        jump: Int? = nil,
        items: [QueueItem]? = nil,
        repeatMode: RepeatMode? = nil,
        shuffle: Bool? = nil,
        currentTime: Double? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.mediaSessionId = mediaSessionId
        self.sessionId = sessionId
        self.currentItemId = currentItemId
        self.jump = jump
        self.items = items
        self.repeatMode = repeatMode
        self.shuffle = shuffle
        self.currentTime = currentTime
        self.customData = customData
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueUpdateRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            mediaSessionId: try object.decode("mediaSessionId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            currentItemId: try object.decodeIfPresent("currentItemId"),
            jump: try object.decodeIfPresent("jump"),
            items: try object.decodeIfPresent("items"),
            repeatMode: try object.decodeIfPresent("repeatMode"),
            shuffle: try object.decodeIfPresent("shuffle"),
            currentTime: try object.decodeIfPresent("currentTime"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueUpdateRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("sessionId", sessionId)
        try writer.member("currentItemId", currentItemId)
        try writer.member("jump", jump)
        try writer.member("items", items)
        try writer.member("repeatMode", repeatMode)
        try writer.member("shuffle", shuffle)
        try writer.member("currentTime", currentTime)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
