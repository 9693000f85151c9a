import CastCore

/// The videos of a catalog in the CastVideos JSON format.
///
/// The format: `categories[]`, each with a `name`, base URLs `mp4`, `images` and `tracks`, and
/// `videos[]`, each with `title`, `subtitle`, `studio`, `duration`, `image-480x270`,
/// `image-780x1200`, `sources[]` (`type`, `mime`, `url`) and `tracks[]` (`id`, `type`,
/// `subtype`, `contentId`, `name`, `language`). Relative URLs are resolved against the
/// category's base for their kind. A video may also carry a `description`; without one its
/// subtitle is used.
///
/// Beyond the sample's format: a category may have an `hls` base and a video an `hls`
/// source, used when it has no `mp4` one (videos with neither are skipped, as the sample app
/// skips videos without `mp4`); `live: true` makes a video a live stream (no duration); and
/// a video's ad breaks are `breakClips[]` (`id`, `title`, `url` resolved against `mp4`,
/// `duration`, `whenSkippable`, `poster` resolved against `images`) and `breaks[]` (`id`,
/// `position` in seconds, `breakClipIds`), as a Cast receiver's media information holds them.
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
            hls: try optionalString(object["hls"], "\(path).hls") ?? "",
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
        var hls: String
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
        let live = try optionalBool(object["live"], "\(path).live") ?? false
        let thumbnail = try optionalString(object["image-480x270"], "\(path).image-480x270")
        let poster = try optionalString(object["image-780x1200"], "\(path).image-780x1200")
        let sources = try array(object["sources"], "\(path).sources")
        var mp4Stream: (url: String, mime: String)?
        var hlsStream: (url: String, mime: String)?
        for (index, source) in sources.enumerated() {
            let sourcePath = "\(path).sources[\(index)]"
            let sourceObject = try self.object(source, sourcePath)
            let type = try string(sourceObject["type"], "\(sourcePath).type")
            let url = try string(sourceObject["url"], "\(sourcePath).url")
            let mime = try optionalString(sourceObject["mime"], "\(sourcePath).mime")
            if mp4Stream == nil, type.lowercased() == "mp4" {
                mp4Stream = (Reader.resolve(url, against: bases.mp4), mime ?? "video/mp4")
            } else if hlsStream == nil, type.lowercased() == "hls" {
                hlsStream = (Reader.resolve(url, against: bases.hls), mime ?? "application/x-mpegurl")
            }
        }
        guard let stream = mp4Stream ?? hlsStream else { return nil }
        let clips =
            try object["breakClips"].map { value throws(CatalogError) in
                try array(value, "\(path).breakClips").enumerated().map { (index, clip) throws(CatalogError) in
                    try breakClip(clip, "\(path).breakClips[\(index)]", bases: bases)
                }
            } ?? []
        let breaks =
            try object["breaks"].map { value throws(CatalogError) in
                try array(value, "\(path).breaks").enumerated().map { (index, adBreak) throws(CatalogError) in
                    try self.adBreak(adBreak, "\(path).breaks[\(index)]", clips: clips, duration: live ? nil : duration)
                }
            } ?? []
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
            tracks: tracks,
            isLive: live,
            breakClips: clips,
            breaks: breaks
        )
    }

    private func breakClip(_ value: JSONValue, _ path: String, bases: Bases) throws(CatalogError) -> AdBreakClip {
        let object = try self.object(value, path)
        let duration = try optionalNumber(object["duration"], "\(path).duration")
        if let duration, !(duration > 0 && duration < 3600) {
            throw .invalidValue("\(path).duration", "must be between 0 and 3600 seconds")
        }
        let whenSkippable = try optionalNumber(object["whenSkippable"], "\(path).whenSkippable")
        if let whenSkippable, !(whenSkippable >= 0 && whenSkippable < 3600) {
            throw .invalidValue("\(path).whenSkippable", "must be between 0 and 3600 seconds")
        }
        let url = try string(object["url"], "\(path).url")
        return AdBreakClip(
            id: try string(object["id"], "\(path).id"),
            duration: duration,
            title: try optionalString(object["title"], "\(path).title"),
            contentID: Reader.resolve(url, against: bases.mp4),
            contentURL: Reader.resolve(url, against: bases.mp4),
            contentType: try optionalString(object["mime"], "\(path).mime") ?? "video/mp4",
            posterURL: try optionalString(object["poster"], "\(path).poster").map {
                Reader.resolve($0, against: bases.images)
            },
            whenSkippable: whenSkippable
        )
    }

    private func adBreak(
        _ value: JSONValue,
        _ path: String,
        clips: [AdBreakClip],
        duration: Double?
    ) throws(CatalogError) -> AdBreak {
        let object = try self.object(value, path)
        let position = try optionalNumber(object["position"], "\(path).position") ?? 0
        guard position >= 0, position <= (duration ?? 1_000_000) else {
            throw .invalidValue("\(path).position", "must be between 0 and the video's duration")
        }
        var ids: [String] = []
        for (index, id) in try array(object["breakClipIds"], "\(path).breakClipIds").enumerated() {
            guard let id = id.stringValue else {
                throw .wrongType("\(path).breakClipIds[\(index)]", expected: "a string")
            }
            guard clips.contains(where: { $0.id == id }) else {
                throw .invalidValue("\(path).breakClipIds[\(index)]", "names no clip of breakClips")
            }
            ids.append(id)
        }
        return AdBreak(id: try string(object["id"], "\(path).id"), position: position, breakClipIDs: ids)
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

    private func optionalBool(_ value: JSONValue?, _ path: String) throws(CatalogError) -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw .wrongType(path, expected: "true or false") }
        return flag
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
