/// Describes a media stream (`media`).
///
/// Media descriptions are large and are copied into statuses, queue items and messages, so
/// the members are stored out of line and shared between copies until one of them changes.
public struct MediaInformation: Codable, Sendable, Hashable {
    /// The members, shared between copies.
    private var storage: Storage
    /// The id or URL of the content (the field older receivers require).
    public var contentID: String? {
        get { storage.fields.contentID }
        set { uniqueStorage().fields.contentID = newValue }
    }
    /// The URL of the content.
    public var contentURL: String? {
        get { storage.fields.contentURL }
        set { uniqueStorage().fields.contentURL = newValue }
    }
    /// How the stream is delivered.
    public var streamType: StreamType? {
        get { storage.fields.streamType }
        set { uniqueStorage().fields.streamType = newValue }
    }
    /// The MIME type, e.g. `video/mp4` or `application/x-mpegURL`.
    public var contentType: String? {
        get { storage.fields.contentType }
        set { uniqueStorage().fields.contentType = newValue }
    }
    /// The title, images and other descriptive data.
    public var metadata: MediaMetadata? {
        get { storage.fields.metadata }
        set { uniqueStorage().fields.metadata = newValue }
    }
    /// The duration in seconds; `nil` when unknown (e.g. live).
    public var duration: Double? {
        get { storage.fields.duration }
        set { uniqueStorage().fields.duration = newValue }
    }
    /// The text, audio and video tracks.
    public var tracks: [MediaTrack]? {
        get { storage.fields.tracks }
        set { uniqueStorage().fields.tracks = newValue }
    }
    /// How text tracks are drawn.
    public var textTrackStyle: TextTrackStyle? {
        get { storage.fields.textTrackStyle }
        set { uniqueStorage().fields.textTrackStyle = newValue }
    }
    /// The ad breaks.
    public var breaks: [AdBreak]? {
        get { storage.fields.breaks }
        set { uniqueStorage().fields.breaks = newValue }
    }
    /// The clips played in ad breaks.
    public var breakClips: [AdBreakClip]? {
        get { storage.fields.breakClips }
        set { uniqueStorage().fields.breakClips = newValue }
    }
    /// A VMAP request that provides the ad breaks; other ad fields are then ignored.
    public var vmapAdsRequest: VASTAdsRequest? {
        get { storage.fields.vmapAdsRequest }
        set { uniqueStorage().fields.vmapAdsRequest = newValue }
    }
    /// A deep link to the media (Assistant).
    public var entity: String? {
        get { storage.fields.entity }
        set { uniqueStorage().fields.entity = newValue }
    }
    /// A deep link for Android TV receivers.
    public var atvEntity: String? {
        get { storage.fields.atvEntity }
        set { uniqueStorage().fields.atvEntity = newValue }
    }
    /// For live streams, the start time as seconds since 1970.
    public var startAbsoluteTime: Double? {
        get { storage.fields.startAbsoluteTime }
        set { uniqueStorage().fields.startAbsoluteTime = newValue }
    }
    /// The HLS audio segment format.
    public var hlsSegmentFormat: HLSSegmentFormat? {
        get { storage.fields.hlsSegmentFormat }
        set { uniqueStorage().fields.hlsSegmentFormat = newValue }
    }
    /// The HLS video segment format.
    public var hlsVideoSegmentFormat: HLSVideoSegmentFormat? {
        get { storage.fields.hlsVideoSegmentFormat }
        set { uniqueStorage().fields.hlsVideoSegmentFormat = newValue }
    }
    /// Data for the receiver application.
    public var customData: JSONValue? {
        get { storage.fields.customData }
        set { uniqueStorage().fields.customData = newValue }
    }

    /// Members this version does not model, as received (e.g. `mediaCategory` from CAF
    /// receivers); written back after the others.
    public var unknownMembers: [String: JSONValue] {
        get { storage.fields.unknownMembers }
        set { uniqueStorage().fields.unknownMembers = newValue }
    }
    /// Creates a value; every optional member defaults to absent.
    public init(
        contentID: String? = nil,
        contentURL: String? = nil,
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
        customData: JSONValue? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        storage = Storage(
            Fields(
                contentID: contentID,
                contentURL: contentURL,
                streamType: streamType,
                contentType: contentType,
                metadata: metadata,
                duration: duration,
                tracks: tracks,
                textTrackStyle: textTrackStyle,
                breaks: breaks,
                breakClips: breakClips,
                vmapAdsRequest: vmapAdsRequest,
                entity: entity,
                atvEntity: atvEntity,
                startAbsoluteTime: startAbsoluteTime,
                hlsSegmentFormat: hlsSegmentFormat,
                hlsVideoSegmentFormat: hlsVideoSegmentFormat,
                customData: customData,
                unknownMembers: unknownMembers
            )
        )
    }

    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    public static func == (lhs: MediaInformation, rhs: MediaInformation) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
        return storage
    }

    // JSON members: generated by scripts/json-members.py
    /// The members, with the synthesized `Codable` conformance that defines the JSON form.
    struct Fields: Codable, Sendable, Hashable {
        var contentID: String?
        var contentURL: String?
        var streamType: StreamType?
        var contentType: String?
        var metadata: MediaMetadata?
        var duration: Double?
        var tracks: [MediaTrack]?
        var textTrackStyle: TextTrackStyle?
        var breaks: [AdBreak]?
        var breakClips: [AdBreakClip]?
        var vmapAdsRequest: VASTAdsRequest?
        var entity: String?
        var atvEntity: String?
        var startAbsoluteTime: Double?
        var hlsSegmentFormat: HLSSegmentFormat?
        var hlsVideoSegmentFormat: HLSVideoSegmentFormat?
        var customData: JSONValue?
        var unknownMembers: [String: JSONValue] = [:]

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case contentID = "contentId"
            case contentURL = "contentUrl"
            case streamType, contentType, metadata, duration, tracks, textTrackStyle, breaks
            case breakClips, vmapAdsRequest, entity, atvEntity, startAbsoluteTime, hlsSegmentFormat
            case hlsVideoSegmentFormat, customData
        }

        static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
    }

    /// A reference to the members.
    ///
    /// `@unchecked Sendable`: `fields` is only written through `uniqueStorage()`, that is when
    /// no other value (and so no other thread) holds the same instance.
    private final class Storage: @unchecked Sendable {
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    fileprivate init(fields: Fields) {
        storage = Storage(fields)
    }
}

extension MediaInformation: TokenDecodable, TokenEncodableObject {
    init(token index: Int, in document: JSONDocument) throws {
        self.init(fields: try Fields(token: index, in: document))
    }

    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try storage.fields.writeMembers(to: &writer)
    }
}

// MARK: - Generated JSON members
// Written by scripts/json-members.py from the member lists above; do not edit by hand.

extension MediaInformation.Fields: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            contentID: try object.decodeIfPresent("contentId"),
            contentURL: try object.decodeIfPresent("contentUrl"),
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
            customData: try object.decodeIfPresent("customData"),
            unknownMembers: object.unknownMembers(known: Self.knownMembers)
        )
    }
}

extension MediaInformation.Fields: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("contentId", contentID)
        try writer.member("contentUrl", contentURL)
        try writer.member("streamType", streamType)
        try writer.member("contentType", contentType)
        try writer.member("metadata", metadata)
        try writer.member("duration", duration)
        try writer.member("tracks", tracks)
        try writer.member("textTrackStyle", textTrackStyle)
        try writer.member("breaks", breaks)
        try writer.member("breakClips", breakClips)
        try writer.member("vmapAdsRequest", vmapAdsRequest)
        try writer.member("entity", entity)
        try writer.member("atvEntity", atvEntity)
        try writer.member("startAbsoluteTime", startAbsoluteTime)
        try writer.member("hlsSegmentFormat", hlsSegmentFormat)
        try writer.member("hlsVideoSegmentFormat", hlsVideoSegmentFormat)
        try writer.member("customData", customData)
        try writer.unknownMembers(unknownMembers)
    }
}
