/// Where playback is inside an ad break (`breakStatus` of `MEDIA_STATUS`).
public struct AdBreakStatus: Codable, Sendable, Hashable {
    /// The playing break.
    public var breakId: String?
    /// The playing clip.
    public var breakClipId: String?
    /// Seconds played of the break.
    public var currentBreakTime: Double?
    /// Seconds played of the clip.
    public var currentBreakClipTime: Double?
    /// Seconds into the clip after which `SKIP_AD` is allowed; absent when not skippable.
    public var whenSkippable: Double?

    /// Creates a value; every optional member defaults to absent.
    public init(
        breakId: String? = nil,
        breakClipId: String? = nil,
        currentBreakTime: Double? = nil,
        currentBreakClipTime: Double? = nil,
        whenSkippable: Double? = nil
    ) {
        self.breakId = breakId
        self.breakClipId = breakClipId
        self.currentBreakTime = currentBreakTime
        self.currentBreakClipTime = currentBreakClipTime
        self.whenSkippable = whenSkippable
    }
}

extension AdBreakStatus: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            breakId: try object.decodeIfPresent("breakId"),
            breakClipId: try object.decodeIfPresent("breakClipId"),
            currentBreakTime: try object.decodeIfPresent("currentBreakTime"),
            currentBreakClipTime: try object.decodeIfPresent("currentBreakClipTime"),
            whenSkippable: try object.decodeIfPresent("whenSkippable")
        )
    }
}

extension AdBreakStatus: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("breakId", breakId)
        try writer.member("breakClipId", breakClipId)
        try writer.member("currentBreakTime", currentBreakTime)
        try writer.member("currentBreakClipTime", currentBreakClipTime)
        try writer.member("whenSkippable", whenSkippable)
    }
}
