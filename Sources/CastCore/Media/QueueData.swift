/// A media queue and its description (`queueData`).
public struct QueueData: Codable, Sendable, Hashable {
    /// The id of the queue.
    public var id: String?
    /// A name to show.
    public var name: String?
    /// A description to show.
    public var description: String?
    /// A deep link to the queue.
    public var entity: String?
    /// What the queue represents.
    public var queueType: QueueType?
    /// The container the queue represents.
    public var containerMetadata: QueueContainerMetadata?
    /// How the queue repeats.
    public var repeatMode: RepeatMode?
    /// The items, when loading.
    public var items: [QueueItem]?
    /// The index of the item to play first, when loading.
    public var startIndex: Int?
    /// Where to start the first item, in seconds, when loading.
    public var startTime: Double?
    /// Whether to shuffle the items when loading.
    public var shuffle: Bool?

    /// Creates a value; every optional member defaults to absent.
    public init(
        id: String? = nil,
        name: String? = nil,
        description: String? = nil,
        entity: String? = nil,
        queueType: QueueType? = nil,
        containerMetadata: QueueContainerMetadata? = nil,
        repeatMode: RepeatMode? = nil,
        items: [QueueItem]? = nil,
        startIndex: Int? = nil,
        startTime: Double? = nil,
        shuffle: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.entity = entity
        self.queueType = queueType
        self.containerMetadata = containerMetadata
        self.repeatMode = repeatMode
        self.items = items
        self.startIndex = startIndex
        self.startTime = startTime
        self.shuffle = shuffle
    }
}

extension QueueData: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            id: try object.decodeIfPresent("id"),
            name: try object.decodeIfPresent("name"),
            description: try object.decodeIfPresent("description"),
            entity: try object.decodeIfPresent("entity"),
            queueType: try object.decodeIfPresent("queueType"),
            containerMetadata: try object.decodeIfPresent("containerMetadata"),
            repeatMode: try object.decodeIfPresent("repeatMode"),
            items: try object.decodeIfPresent("items"),
            startIndex: try object.decodeIfPresent("startIndex"),
            startTime: try object.decodeIfPresent("startTime"),
            shuffle: try object.decodeIfPresent("shuffle")
        )
    }
}

extension QueueData: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("id", id)
        try writer.member("name", name)
        try writer.member("description", description)
        try writer.member("entity", entity)
        try writer.member("queueType", queueType)
        try writer.member("containerMetadata", containerMetadata)
        try writer.member("repeatMode", repeatMode)
        try writer.member("items", items)
        try writer.member("startIndex", startIndex)
        try writer.member("startTime", startTime)
        try writer.member("shuffle", shuffle)
    }
}
