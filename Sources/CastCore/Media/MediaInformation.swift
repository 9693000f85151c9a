/// Describes a media stream (`media`).
public struct MediaInformation: Codable, Sendable, Hashable {
    /// The id or URL of the content (the field older receivers require).
    public var contentId: String?
    /// The URL of the content.
    public var contentUrl: String?
    /// How the stream is delivered.
    public var streamType: StreamType?
    /// The MIME type, e.g. `video/mp4` or `application/x-mpegURL`.
    public var contentType: String?
    /// The title, images and other descriptive data.
    public var metadata: MediaMetadata?
    /// The duration in seconds; `nil` when unknown (e.g. live).
    public var duration: Double?
    /// The text, audio and video tracks.
    public var tracks: [MediaTrack]?
    /// How text tracks are drawn.
    public var textTrackStyle: TextTrackStyle?
    /// The ad breaks.
    public var breaks: [AdBreak]?
    /// The clips played in ad breaks.
    public var breakClips: [AdBreakClip]?
    /// A VMAP request that provides the ad breaks; other ad fields are then ignored.
    public var vmapAdsRequest: VASTAdsRequest?
    /// A deep link to the media (Assistant).
    public var entity: String?
    /// A deep link for Android TV receivers.
    public var atvEntity: String?
    /// For live streams, the start time as seconds since 1970.
    public var startAbsoluteTime: Double?
    /// The HLS audio segment format.
    public var hlsSegmentFormat: HLSSegmentFormat?
    /// The HLS video segment format.
    public var hlsVideoSegmentFormat: HLSVideoSegmentFormat?
    /// Data for the receiver application.
    public var customData: JSONValue?

    /// Creates a value; every optional member defaults to absent.
    public init(
        contentId: String? = nil,
        contentUrl: String? = nil,
        streamType: StreamType? = nil,
        contentType: String? = nil,
        metadata: MediaMetadata? = nil,
        duration: Double? = nil,
        tracks: [MediaTrack]? = nil,
        textTrackStyle: TextTrackStyle? = nil,
        breaks: [AdBreak]? = nil,
        breakClips: [AdBreakClip]? = nil,
        vmapAdsRequest: VASTAdsRequest? = nil,
        entity: String? = nil,
        atvEntity: String? = nil,
        startAbsoluteTime: Double? = nil,
        hlsSegmentFormat: HLSSegmentFormat? = nil,
        hlsVideoSegmentFormat: HLSVideoSegmentFormat? = nil,
        customData: JSONValue? = nil
    ) {
        self.contentId = contentId
        self.contentUrl = contentUrl
        self.streamType = streamType
        self.contentType = contentType
        self.metadata = metadata
        self.duration = duration
        self.tracks = tracks
        self.textTrackStyle = textTrackStyle
        self.breaks = breaks
        self.breakClips = breakClips
        self.vmapAdsRequest = vmapAdsRequest
        self.entity = entity
        self.atvEntity = atvEntity
        self.startAbsoluteTime = startAbsoluteTime
        self.hlsSegmentFormat = hlsSegmentFormat
        self.hlsVideoSegmentFormat = hlsVideoSegmentFormat
        self.customData = customData
    }
}

extension MediaInformation: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            contentId: try object.decodeIfPresent("contentId"),
            contentUrl: try object.decodeIfPresent("contentUrl"),
            streamType: try object.decodeIfPresent("streamType"),
            contentType: try object.decodeIfPresent("contentType"),
            metadata: try object.decodeIfPresent("metadata"),
            duration: try object.decodeIfPresent("duration"),
            tracks: try object.decodeIfPresent("tracks"),
            textTrackStyle: try object.decodeIfPresent("textTrackStyle"),
            breaks: try object.decodeIfPresent("breaks"),
            breakClips: try object.decodeIfPresent("breakClips"),
            vmapAdsRequest: try object.decodeIfPresent("vmapAdsRequest"),
            entity: try object.decodeIfPresent("entity"),
            atvEntity: try object.decodeIfPresent("atvEntity"),
            startAbsoluteTime: try object.decodeIfPresent("startAbsoluteTime"),
            hlsSegmentFormat: try object.decodeIfPresent("hlsSegmentFormat"),
            hlsVideoSegmentFormat: try object.decodeIfPresent("hlsVideoSegmentFormat"),
            customData: try object.decodeIfPresent("customData")
        )
    }
}
