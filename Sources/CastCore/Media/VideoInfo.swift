/// The format of the playing video (`videoInfo`).
public struct VideoInfo: Codable, Sendable, Hashable {
    /// The width in pixels.
    public var width: Int?
    /// The height in pixels.
    public var height: Int?
    /// The dynamic range.
    public var hdrType: HDRType?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        width: Int? = nil,
        height: Int? = nil,
        hdrType: HDRType? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.width = width
        self.height = height
        self.hdrType = hdrType
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case width, height, hdrType
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension VideoInfo: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            width: try object.decodeIfPresent("width"),
            height: try object.decodeIfPresent("height"),
            hdrType: try object.decodeIfPresent("hdrType")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension VideoInfo: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("width", width)
        try writer.member("height", height)
        try writer.member("hdrType", hdrType)
        try writer.unknownMembers(unknownMembers)
    }
}
