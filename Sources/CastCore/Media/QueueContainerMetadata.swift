/// Describes the container a queue represents, such as an audiobook (`queueData.containerMetadata`).
public struct QueueContainerMetadata: Codable, Sendable, Hashable {
    /// The kind of container.
    public var containerType: ContainerType?
    /// The title of the container.
    public var title: String?
    /// Metadata of the sections, such as chapters.
    public var sections: [MediaMetadata]?
    /// The total duration in seconds.
    public var containerDuration: Double?
    /// Images of the container.
    public var containerImages: [MediaImage]?

    /// Creates a value; every optional member defaults to absent.
    public init(
        containerType: ContainerType? = nil,
        title: String? = nil,
        sections: [MediaMetadata]? = nil,
        containerDuration: Double? = nil,
        containerImages: [MediaImage]? = nil
    ) {
        self.containerType = containerType
        self.title = title
        self.sections = sections
        self.containerDuration = containerDuration
        self.containerImages = containerImages
    }
}

extension QueueContainerMetadata: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            containerType: try object.decodeIfPresent("containerType"),
            title: try object.decodeIfPresent("title"),
            sections: try object.decodeIfPresent("sections"),
            containerDuration: try object.decodeIfPresent("containerDuration"),
            containerImages: try object.decodeIfPresent("containerImages")
        )
    }
}

extension QueueContainerMetadata: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("containerType", containerType)
        try writer.member("title", title)
        try writer.member("sections", sections)
        try writer.member("containerDuration", containerDuration)
        try writer.member("containerImages", containerImages)
    }
}
