/// A text, audio or video track of media (`media.tracks[]`).
public struct MediaTrack: Codable, Sendable, Hashable {
    /// The id of the track, unique within the media.
    public var trackId: Int
    /// The kind of track.
    public var type: MediaTrackType
    /// The URL or id of the track content.
    public var trackContentId: String?
    /// The MIME type of the track content, e.g. `text/vtt`.
    public var trackContentType: String?
    /// A name to show.
    public var name: String?
    /// An RFC 5646 language tag such as `en-US`.
    public var language: String?
    /// For text tracks, the kind of text.
    public var subtype: TextTrackSubtype?
    /// The roles of the track.
    public var roles: [String]?
    /// Data for the receiver application.
    public var customData: JSONValue?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        trackId: Int,
        type: MediaTrackType,
        trackContentId: String? = nil,
        trackContentType: String? = nil,
        name: String? = nil,
        language: String? = nil,
        subtype: TextTrackSubtype? = nil,
        roles: [String]? = nil,
        customData: JSONValue? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.trackId = trackId
        self.type = type
        self.trackContentId = trackContentId
        self.trackContentType = trackContentType
        self.name = name
        self.language = language
        self.subtype = subtype
        self.roles = roles
        self.customData = customData
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case trackId, type, trackContentId, trackContentType, name, language, subtype, roles, customData
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension MediaTrack: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            trackId: try object.decode("trackId"),
            type: try object.decode("type"),
            trackContentId: try object.decodeIfPresent("trackContentId"),
            trackContentType: try object.decodeIfPresent("trackContentType"),
            name: try object.decodeIfPresent("name"),
            language: try object.decodeIfPresent("language"),
            subtype: try object.decodeIfPresent("subtype"),
            roles: try object.decodeIfPresent("roles"),
            customData: try object.decodeIfPresent("customData")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MediaTrack: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("trackId", trackId)
        try writer.member("type", type)
        try writer.member("trackContentId", trackContentId)
        try writer.member("trackContentType", trackContentType)
        try writer.member("name", name)
        try writer.member("language", language)
        try writer.member("subtype", subtype)
        try writer.member("roles", roles)
        try writer.member("customData", customData)
        try writer.unknownMembers(unknownMembers)
    }
}
