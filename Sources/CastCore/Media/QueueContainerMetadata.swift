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
