/// A clip played in ad breaks (`media.breakClips[]`).
public struct AdBreakClip: Codable, Sendable, Hashable {
    /// The id of the clip.
    public var id: String
    /// The duration in seconds.
    public var duration: Double?
    /// A title to show.
    public var title: String?
    /// The id of the clip content.
    public var contentId: String?
    /// The URL of the clip content.
    public var contentUrl: String?
    /// The MIME type of the clip content.
    public var contentType: String?
    /// A page to open for the ad.
    public var clickThroughUrl: String?
    /// An image to show while the clip plays.
    public var posterUrl: String?
    /// Seconds after which the clip may be skipped; absent when it cannot be skipped.
    public var whenSkippable: Double?
    /// The HLS audio segment format.
    public var hlsSegmentFormat: HLSSegmentFormat?
    /// A VAST request that provides the clip.
    public var vastAdsRequest: VASTAdsRequest?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        id: String,
        duration: Double? = nil,
        title: String? = nil,
        contentId: String? = nil,
        contentUrl: String? = nil,
        contentType: String? = nil,
        clickThroughUrl: String? = nil,
        posterUrl: String? = nil,
        whenSkippable: Double? = nil,
        hlsSegmentFormat: HLSSegmentFormat? = nil,
        vastAdsRequest: VASTAdsRequest? = nil,
        customData: JSONValue? = nil
    ) {
        self.id = id
        self.duration = duration
        self.title = title
        self.contentId = contentId
        self.contentUrl = contentUrl
        self.contentType = contentType
        self.clickThroughUrl = clickThroughUrl
        self.posterUrl = posterUrl
        self.whenSkippable = whenSkippable
        self.hlsSegmentFormat = hlsSegmentFormat
        self.vastAdsRequest = vastAdsRequest
        self.customData = customData
    }
}

extension AdBreakClip: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            id: try object.decode("id"),
            duration: try object.decodeIfPresent("duration"),
            title: try object.decodeIfPresent("title"),
            contentId: try object.decodeIfPresent("contentId"),
            contentUrl: try object.decodeIfPresent("contentUrl"),
            contentType: try object.decodeIfPresent("contentType"),
            clickThroughUrl: try object.decodeIfPresent("clickThroughUrl"),
            posterUrl: try object.decodeIfPresent("posterUrl"),
            whenSkippable: try object.decodeIfPresent("whenSkippable"),
            hlsSegmentFormat: try object.decodeIfPresent("hlsSegmentFormat"),
            vastAdsRequest: try object.decodeIfPresent("vastAdsRequest"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}

extension AdBreakClip: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("id", id)
        try writer.member("duration", duration)
        try writer.member("title", title)
        try writer.member("contentId", contentId)
        try writer.member("contentUrl", contentUrl)
        try writer.member("contentType", contentType)
        try writer.member("clickThroughUrl", clickThroughUrl)
        try writer.member("posterUrl", posterUrl)
        try writer.member("whenSkippable", whenSkippable)
        try writer.member("hlsSegmentFormat", hlsSegmentFormat)
        try writer.member("vastAdsRequest", vastAdsRequest)
        try writer.member("customData", customData)
    }
}
