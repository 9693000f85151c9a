/// Descriptive data of media: title, images and the keys of its ``metadataType`` (`media.metadata`).
///
/// The standard keys have typed accessors (``title``, ``seriesTitle``, ``trackNumber`` …);
/// every other member is kept in ``fields`` as JSON, so app-defined keys survive a round trip.
///
/// ```swift
/// var metadata = MediaMetadata(metadataType: .movie)
/// metadata.title = "Big Buck Bunny"
/// metadata.images = [MediaImage(url: "https://example.com/poster.jpg", width: 480, height: 270)]
/// ```
public struct MediaMetadata: Codable, Sendable, Hashable {
    /// The kind of media described.
    public var metadataType: MediaMetadataType
    /// Images of the media, in order of preference.
    public var images: [MediaImage]
    /// Every other member by its JSON name, standard keys included.
    public var fields: [String: JSONValue]

    /// Creates metadata.
    public init(
        metadataType: MediaMetadataType = .generic,
        images: [MediaImage] = [],
        fields: [String: JSONValue] = [:]
    ) {
        self.metadataType = metadataType
        self.images = images
        self.fields = fields
    }

    /// The member named `key`, standard or app-defined.
    public subscript(key: String) -> JSONValue? {
        get { fields[key] }
        set { fields[key] = newValue }
    }

    // MARK: Codable

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        metadataType = .generic
        images = []
        fields = [:]
        for key in container.allKeys {
            switch key.stringValue {
            case "metadataType":
                metadataType = try container.decodeIfPresent(MediaMetadataType.self, forKey: key) ?? .generic
            case "images":
                images = try container.decodeIfPresent([MediaImage].self, forKey: key) ?? []
            default:
                fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(metadataType, forKey: AnyCodingKey("metadataType"))
        for key in fields.keys.sorted() where key != "metadataType" && key != "images" {
            try container.encode(fields[key]!, forKey: AnyCodingKey(key))
        }
        if !images.isEmpty {
            try container.encode(images, forKey: AnyCodingKey("images"))
        }
    }

    // MARK: Typed access

    private func string(_ key: String) -> String? { fields[key]?.stringValue }
    private mutating func setString(_ value: String?, _ key: String) { fields[key] = value.map(JSONValue.string) }
    private func integer(_ key: String) -> Int? { fields[key]?.intValue }
    private mutating func setInteger(_ value: Int?, _ key: String) { fields[key] = value.map(JSONValue.integer) }
    private func double(_ key: String) -> Double? { fields[key]?.doubleValue }
    private mutating func setDouble(_ value: Double?, _ key: String) { fields[key] = value.map(JSONValue.double) }

    /// `title`: the title (all types).
    public var title: String? {
        get { string("title") }
        set { setString(newValue, "title") }
    }

    /// `subtitle`: a subtitle or description (generic, movie, audiobook chapter).
    public var subtitle: String? {
        get { string("subtitle") }
        set { setString(newValue, "subtitle") }
    }

    /// `artist`: the artist (generic, music track, photo).
    public var artist: String? {
        get { string("artist") }
        set { setString(newValue, "artist") }
    }

    /// `albumName`: the album title (music track).
    public var albumName: String? {
        get { string("albumName") }
        set { setString(newValue, "albumName") }
    }

    /// `albumArtist`: the album artist (music track).
    public var albumArtist: String? {
        get { string("albumArtist") }
        set { setString(newValue, "albumArtist") }
    }

    /// `composer`: the composer (music track).
    public var composer: String? {
        get { string("composer") }
        set { setString(newValue, "composer") }
    }

    /// `trackNumber`: the track number on the disc (music track).
    public var trackNumber: Int? {
        get { integer("trackNumber") }
        set { setInteger(newValue, "trackNumber") }
    }

    /// `discNumber`: the disc number (music track).
    public var discNumber: Int? {
        get { integer("discNumber") }
        set { setInteger(newValue, "discNumber") }
    }

    /// `studio`: the studio (movie).
    public var studio: String? {
        get { string("studio") }
        set { setString(newValue, "studio") }
    }

    /// `seriesTitle`: the series title (TV show).
    public var seriesTitle: String? {
        get { string("seriesTitle") }
        set { setString(newValue, "seriesTitle") }
    }

    /// `season`: the season number (TV show).
    public var season: Int? {
        get { integer("season") }
        set { setInteger(newValue, "season") }
    }

    /// `episode`: the episode number (TV show).
    public var episode: Int? {
        get { integer("episode") }
        set { setInteger(newValue, "episode") }
    }

    /// `releaseDate`: the ISO-8601 release date (generic, movie, music track).
    public var releaseDate: String? {
        get { string("releaseDate") }
        set { setString(newValue, "releaseDate") }
    }

    /// `originalAirdate`: the ISO-8601 first broadcast date (TV show).
    public var originalAirdate: String? {
        get { string("originalAirdate") }
        set { setString(newValue, "originalAirdate") }
    }

    /// `creationDateTime`: the ISO-8601 date the photo was taken (photo).
    public var creationDateTime: String? {
        get { string("creationDateTime") }
        set { setString(newValue, "creationDateTime") }
    }

    /// `location`: where the photo was taken (photo).
    public var location: String? {
        get { string("location") }
        set { setString(newValue, "location") }
    }

    /// `latitude`: the latitude of the location (photo).
    public var latitude: Double? {
        get { double("latitude") }
        set { setDouble(newValue, "latitude") }
    }

    /// `longitude`: the longitude of the location (photo).
    public var longitude: Double? {
        get { double("longitude") }
        set { setDouble(newValue, "longitude") }
    }

    /// `width`: the width in pixels (photo).
    public var width: Int? {
        get { integer("width") }
        set { setInteger(newValue, "width") }
    }

    /// `height`: the height in pixels (photo).
    public var height: Int? {
        get { integer("height") }
        set { setInteger(newValue, "height") }
    }

    /// `bookTitle`: the book title (audiobook chapter).
    public var bookTitle: String? {
        get { string("bookTitle") }
        set { setString(newValue, "bookTitle") }
    }

    /// `chapterTitle`: the chapter title (audiobook chapter).
    public var chapterTitle: String? {
        get { string("chapterTitle") }
        set { setString(newValue, "chapterTitle") }
    }

    /// `chapterNumber`: the chapter number (audiobook chapter).
    public var chapterNumber: Int? {
        get { integer("chapterNumber") }
        set { setInteger(newValue, "chapterNumber") }
    }

    /// `sectionDuration`: the duration of a queue section, in seconds.
    public var sectionDuration: Double? {
        get { double("sectionDuration") }
        set { setDouble(newValue, "sectionDuration") }
    }

    /// `sectionStartTimeInMedia`: where a section starts in its media, in seconds.
    public var sectionStartTimeInMedia: Double? {
        get { double("sectionStartTimeInMedia") }
        set { setDouble(newValue, "sectionStartTimeInMedia") }
    }

    /// `sectionStartAbsoluteTime`: when a section starts, in seconds since 1970.
    public var sectionStartAbsoluteTime: Double? {
        get { double("sectionStartAbsoluteTime") }
        set { setDouble(newValue, "sectionStartAbsoluteTime") }
    }

    /// `sectionStartTimeInContainer`: where a section starts in its container, in seconds.
    public var sectionStartTimeInContainer: Double? {
        get { double("sectionStartTimeInContainer") }
        set { setDouble(newValue, "sectionStartTimeInContainer") }
    }

    /// `queueItemId`: the queue item a section belongs to.
    public var queueItemID: Int? {
        get { integer("queueItemId") }
        set { setInteger(newValue, "queueItemId") }
    }
}

extension MediaMetadata: TokenDecodable {
    init(token index: Int, in document: JSONDocument) throws {
        let object = try TokenObject(index, document)
        self.init()
        fields = [String: JSONValue](minimumCapacity: document.tokens[index].count)
        try object.forEachMember { name, value in
            if document.string(at: name, equals: "metadataType") {
                if document.tokens[value].kind != .null {
                    metadataType = try MediaMetadataType(token: value, in: document)
                }
            } else if document.string(at: name, equals: "images") {
                if document.tokens[value].kind != .null {
                    images = try [MediaImage](token: value, in: document)
                }
            } else {
                fields[document.string(at: name)] = document.value(at: value)
            }
        }
    }
}

extension MediaMetadata: TokenEncodableObject {
    func writeMembers(to writer: inout JSONWriter) throws(NonFiniteNumber) {
        try writer.member("metadataType", metadataType)
        for key in fields.keys.sorted() where key != "metadataType" && key != "images" {
            if writer.needsComma { writer.append(UInt8(ascii: ",")) }
            writer.write(key)
            writer.append(UInt8(ascii: ":"))
            try fields[key]!.write(to: &writer)
            writer.needsComma = true
        }
        if !images.isEmpty {
            try writer.member("images", images)
        }
    }
}
