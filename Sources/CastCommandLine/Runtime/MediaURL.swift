import CastCore

/// Helpers for the URLs and files `cast play` takes.
enum MediaURL {
    /// Whether `text` is an `http` or `https` URL.
    static func isRemote(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A MIME type from the file extension, or `nil`.
    static func contentType(for path: String) -> String? {
        var name = Substring(path)
        if let query = name.firstIndex(where: { $0 == "?" || $0 == "#" }) { name = name[..<query] }
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        let types: [String: String] = [
            "mp4": "video/mp4", "m4v": "video/mp4", "mkv": "video/x-matroska", "webm": "video/webm",
            "mov": "video/quicktime", "m3u8": "application/x-mpegURL", "mpd": "application/dash+xml",
            "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg", "opus": "audio/ogg",
            "flac": "audio/flac", "wav": "audio/wav", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
            "gif": "image/gif", "webp": "image/webp", "vtt": "text/vtt", "srt": "application/x-subrip",
        ]
        return types[name[name.index(after: dot)...].lowercased()]
    }

    /// Media information for a URL.
    static func information(_ url: String, title: String?, contentType: String?) -> MediaInformation {
        var fields: [String: JSONValue] = [:]
        if let title { fields["title"] = .string(title) }
        return MediaInformation(
            contentID: url,
            contentURL: url,
            streamType: .buffered,
            contentType: contentType ?? Self.contentType(for: url) ?? "video/mp4",
            metadata: MediaMetadata(metadataType: .generic, fields: fields)
        )
    }

    /// A queue item for a URL.
    static func queueItem(_ url: String, title: String?, contentType: String?) -> QueueItem {
        QueueItem(media: information(url, title: title, contentType: contentType), autoplay: true)
    }
}
