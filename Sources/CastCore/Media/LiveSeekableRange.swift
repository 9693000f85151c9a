/// The seekable window of a live stream (`liveSeekableRange`).
public struct LiveSeekableRange: Codable, Sendable, Hashable {
    /// The start of the window in seconds.
    public var start: Double?
    /// The end of the window in seconds.
    public var end: Double?
    /// Whether the start moves forward with time.
    public var isMovingWindow: Bool?
    /// Whether the live stream has ended.
    public var isLiveDone: Bool?

    /// Creates a value; every optional member defaults to absent.
    public init(
        start: Double? = nil,
        end: Double? = nil,
        isMovingWindow: Bool? = nil,
        isLiveDone: Bool? = nil
    ) {
        self.start = start
        self.end = end
        self.isMovingWindow = isMovingWindow
        self.isLiveDone = isLiveDone
    }
}

extension LiveSeekableRange: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            start: try object.decodeIfPresent("start"),
            end: try object.decodeIfPresent("end"),
            isMovingWindow: try object.decodeIfPresent("isMovingWindow"),
            isLiveDone: try object.decodeIfPresent("isLiveDone")
        )
    }
}

extension LiveSeekableRange: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("start", start)
        try writer.member("end", end)
        try writer.member("isMovingWindow", isMovingWindow)
        try writer.member("isLiveDone", isLiveDone)
    }
}
