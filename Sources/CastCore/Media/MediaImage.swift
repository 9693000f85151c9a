/// An image of media metadata (`metadata.images[]`).
public struct MediaImage: Codable, Sendable, Hashable {
    /// The image URL.
    public var url: String
    /// The width in pixels.
    public var width: Int?
    /// The height in pixels.
    public var height: Int?
    /// Members this version does not model, as received;
    /// written back after the others.
    public var unknownMembers: [String: JSONValue] = [:]

    /// Creates a value; every optional member defaults to absent.
    public init(
        url: String,
        width: Int? = nil,
        height: Int? = nil,
        unknownMembers: [String: JSONValue] = [:]
    ) {
        self.url = url
        self.width = width
        self.height = height
        self.unknownMembers = unknownMembers
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case url, width, height
    }

    static let knownMembers = Set(CodingKeys.allCases.map(\.rawValue))
}

extension MediaImage: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        var object = try TokenObject(index, document)
        self.init(
            url: try object.decode("url"),
            width: try object.decodeIfPresent("width"),
            height: try object.decodeIfPresent("height")
        )
        unknownMembers = object.unknownMembers(known: Self.knownMembers)
    }
}

extension MediaImage: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("url", url)
        try writer.member("width", width)
        try writer.member("height", height)
        try writer.unknownMembers(unknownMembers)
    }
}
