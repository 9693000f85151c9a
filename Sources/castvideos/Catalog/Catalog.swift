import CastCore

/// The videos of a catalog in the CastVideos JSON format.
///
/// The format: `categories[]`, each with a `name`, base URLs `mp4`, `images` and `tracks`, and
/// `videos[]`, each with `title`, `subtitle`, `studio`, `duration`, `image-480x270`,
/// `image-780x1200`, `sources[]` (`type`, `mime`, `url`) and `tracks[]` (`id`, `type`,
/// `subtype`, `contentId`, `name`, `language`). Relative URLs are resolved against the
/// category's base for their kind. A video may also carry a `description`; without one its
/// subtitle is used. Videos without an `mp4` source are skipped, as the sample app does.
struct Catalog: Hashable, Sendable {
    /// The largest catalog accepted, in bytes.
    static let maximumSize = 4 << 20

    var items: [MediaItem]

    init(items: [MediaItem]) {
        self.items = items
    }

    /// Decodes a catalog from JSON text.
    /// - Throws: ``CatalogError`` naming the byte offset or the member that is wrong.
    init(json bytes: [UInt8]) throws(CatalogError) {
        guard bytes.count <= Catalog.maximumSize else {
            throw .tooLarge("catalog", limit: Catalog.maximumSize)
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes, maximumDepth: 32)
        } catch {
            throw .invalidJSON(byteOffset: error.byteOffset ?? 0, error.detail)
        }
        let reader = Reader()
        items = try reader.catalog(root)
        guard !items.isEmpty else { throw .empty }
    }

    /// The item whose stream URL is `contentID`, if any.
    func item(contentID: String?) -> MediaItem? {
        guard let contentID else { return nil }
        return items.first { $0.streamURL == contentID }
    }
}

/// Walks the JSON tree, keeping the path for errors.
private struct Reader {
    func catalog(_ root: JSONValue) throws(CatalogError) -> [MediaItem] {
        let object = try self.object(root, "$")
        let categories = try array(object["categories"], "categories")
        var items: [MediaItem] = []
        var seen: Set<String> = []
        for (index, category) in categories.enumerated() {
            for item in try self.category(category, "categories[\(index)]") where seen.insert(item.streamURL).inserted {
                items.append(item)
            }
        }
        return items
    }

    private func category(_ value: JSONValue, _ path: String) throws(CatalogError) -> [MediaItem] {
        let object = try self.object(value, path)
        let name = try optionalString(object["name"], "\(path).name") ?? ""
        let bases = Bases(
            mp4: try optionalString(object["mp4"], "\(path).mp4") ?? "",
            images: try optionalString(object["images"], "\(path).images") ?? "",
            tracks: try optionalString(object["tracks"], "\(path).tracks") ?? ""
        )
        let videos = try array(object["videos"], "\(path).videos")
        var items: [MediaItem] = []
        for (index, video) in videos.enumerated() {
            if let item = try self.video(video, "\(path).videos[\(index)]", category: name, bases: bases) {
                items.append(item)
            }
        }
        return items
    }

    private struct Bases {
        var mp4: String
        var images: String
        var tracks: String
    }

    private func video(
        _ value: JSONValue,
        _ path: String,
        category: String,
        bases: Bases
    ) throws(CatalogError) -> MediaItem? {
        let object = try self.object(value, path)
        let title = try string(object["title"], "\(path).title")
        let subtitle = try optionalString(object["subtitle"], "\(path).subtitle") ?? ""
        let studio = try optionalString(object["studio"], "\(path).studio") ?? ""
        let description = try optionalString(object["description"], "\(path).description") ?? subtitle
        let duration = try optionalNumber(object["duration"], "\(path).duration") ?? 0
        guard duration >= 0, duration < 1_000_000 else {
            throw .invalidValue("\(path).duration", "must be between 0 and 1000000 seconds")
        }
        let thumbnail = try optionalString(object["image-480x270"], "\(path).image-480x270")
        let poster = try optionalString(object["image-780x1200"], "\(path).image-780x1200")
        let sources = try array(object["sources"], "\(path).sources")
        var stream: (url: String, mime: String)?
        for (index, source) in sources.enumerated() {
            let sourcePath = "\(path).sources[\(index)]"
            let sourceObject = try self.object(source, sourcePath)
            let type = try string(sourceObject["type"], "\(sourcePath).type")
            let url = try string(sourceObject["url"], "\(sourcePath).url")
            let mime = try optionalString(sourceObject["mime"], "\(sourcePath).mime") ?? "video/mp4"
            if stream == nil, type.lowercased() == "mp4" {
                stream = (Reader.resolve(url, against: bases.mp4), mime)
            }
        }
        guard let stream else { return nil }
        var tracks: [MediaItem.Track] = []
        if let trackValues = object["tracks"] {
            for (index, track) in try array(trackValues, "\(path).tracks").enumerated() {
                tracks.append(try self.track(track, "\(path).tracks[\(index)]", base: bases.tracks))
            }
        }
        return MediaItem(
            title: title,
            subtitle: subtitle,
            studio: studio,
            description: description,
            category: category,
            duration: duration,
            thumbnailURL: thumbnail.map { Reader.resolve($0, against: bases.images) },
            posterURL: poster.map { Reader.resolve($0, against: bases.images) },
            streamURL: stream.url,
            mimeType: stream.mime,
            tracks: tracks
        )
    }

    private func track(_ value: JSONValue, _ path: String, base: String) throws(CatalogError) -> MediaItem.Track {
        let object = try self.object(value, path)
        let idPath = "\(path).id"
        let id: Int
        switch object["id"] {
        case .some(.string(let text)):
            guard let number = Int(text) else { throw .invalidValue(idPath, "'\(text)' is not a number") }
            id = number
        case .some(let other):
            guard let number = other.intValue else { throw .wrongType(idPath, expected: "a number or a string") }
            id = number
        case .none:
            throw .missingField(idPath)
        }
        return MediaItem.Track(
            id: id,
            type: try optionalString(object["type"], "\(path).type") ?? "text",
            subtype: try optionalString(object["subtype"], "\(path).subtype"),
            contentID: Reader.resolve(try string(object["contentId"], "\(path).contentId"), against: base),
            name: try optionalString(object["name"], "\(path).name"),
            language: try optionalString(object["language"], "\(path).language")
        )
    }

    // MARK: Typed access

    private func object(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [String: JSONValue] {
        guard let value else { throw .missingField(path) }
        guard let object = value.objectValue else { throw .wrongType(path, expected: "an object") }
        return object
    }

    private func array(_ value: JSONValue?, _ path: String) throws(CatalogError) -> [JSONValue] {
        guard let value else { throw .missingField(path) }
        guard let array = value.arrayValue else { throw .wrongType(path, expected: "an array") }
        return array
    }

    private func string(_ value: JSONValue?, _ path: String) throws(CatalogError) -> String {
        guard let value else { throw .missingField(path) }
        guard let text = value.stringValue else { throw .wrongType(path, expected: "a string") }
        return text
    }

    private func optionalString(_ value: JSONValue?, _ path: String) throws(CatalogError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .wrongType(path, expected: "a string") }
        return text
    }

    private func optionalNumber(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.doubleValue else { throw .wrongType(path, expected: "a number") }
        return number
    }

    /// `url` when it is absolute, else `base` and `url` joined by one slash.
    static func resolve(_ url: String, against base: String) -> String {
        if url.contains("://") || base.isEmpty { return url }
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        let trimmedURL = url.hasPrefix("/") ? String(url.dropFirst()) : url
        return trimmedBase + "/" + trimmedURL
    }
}
