/// `QUEUE_LOAD` (media namespace): loads a queue (legacy; newer senders send `LOAD` with `queueData`).
public struct QueueLoadRequest: CastJSONMessage, Hashable {
    /// Always ``CastMessageType/queueLoad``.
    public var type: CastMessageType { .queueLoad }

    /// The request id the reply will echo.
    public var requestId: Int?
    /// The receiver application session (sent by some senders; not required).
    public var sessionId: String?
    /// The items.
    public var items: [QueueItem]
    /// The index of the item to play first.
    public var startIndex: Int?
    /// How the queue repeats.
    public var repeatMode: RepeatMode?
    /// Where to start the first item, in seconds.
    public var currentTime: Double?
    /// Data for the receiver application.
    public var customData: JSONValue?
    /// The last queue sequence number seen; receivers reject stale queue edits.
    public var sequenceNumber: Int?

    /// Creates a value; every optional member defaults to absent.
    public init(
        requestId: Int? = nil,
        sessionId: String? = nil,
        items: [QueueItem],
        startIndex: Int? = nil,
        repeatMode: RepeatMode? = nil,
        currentTime: Double? = nil,
        customData: JSONValue? = nil,
        sequenceNumber: Int? = nil
    ) {
        self.requestId = requestId
        self.sessionId = sessionId
        self.items = items
        self.startIndex = startIndex
        self.repeatMode = repeatMode
        self.currentTime = currentTime
        self.customData = customData
        self.sequenceNumber = sequenceNumber
    }
}

extension QueueLoadRequest: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            requestId: try object.decodeIfPresent("requestId"),
            sessionId: try object.decodeIfPresent("sessionId"),
            items: try object.decode("items"),
            startIndex: try object.decodeIfPresent("startIndex"),
            repeatMode: try object.decodeIfPresent("repeatMode"),
            currentTime: try object.decodeIfPresent("currentTime"),
            customData: try object.decodeIfPresent("customData"),
            sequenceNumber: try object.decodeIfPresent("sequenceNumber")
        )
    }
}

extension QueueLoadRequest: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("requestId", requestId)
        try writer.member("sessionId", sessionId)
        try writer.member("items", items)
        try writer.member("startIndex", startIndex)
        try writer.member("repeatMode", repeatMode)
        try writer.member("currentTime", currentTime)
        try writer.member("customData", customData)
        try writer.member("sequenceNumber", sequenceNumber)
    }
}
