/// Extra player state while the main state is `IDLE` during a load (`extendedStatus`).
public struct ExtendedMediaStatus: Codable, Sendable, Hashable {
    /// The extended state, e.g. `LOADING`.
    public var playerState: PlayerState
    /// The media session being loaded.
    public var mediaSessionId: Int?
    /// The media being loaded.
    public var media: MediaInformation?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        playerState: PlayerState,
        mediaSessionId: Int? = nil,
        media: MediaInformation? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.playerState = playerState
        self.mediaSessionId = mediaSessionId
        self.media = media
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case playerState, mediaSessionId, media
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension ExtendedMediaStatus: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            playerState: try object.decode("playerState"),
            mediaSessionId: try object.decodeIfPresent("mediaSessionId"),
            media: try object.decodeIfPresent("media")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension ExtendedMediaStatus: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("playerState", playerState)
        try writer.member("mediaSessionId", mediaSessionId)
        try writer.member("media", media)
        try writer.unknownMembers(unknownMembers)
    }
}
