import CastCore

/// One video of the catalog, with every URL already resolved against its category's bases.
struct MediaItem: Hashable, Sendable, Identifiable {
    /// A text or audio track of a video.
    struct Track: Hashable, Sendable {
        var id: Int
        var type: String
        var subtype: String?
        var contentID: String
        var name: String?
        var language: String?
    }

    /// The stream URL, unique in a catalog.
    var id: String { streamURL }
    var title: String
    var subtitle: String
    var studio: String
    var description: String
    var category: String
    /// The duration in seconds.
    var duration: Double
    var thumbnailURL: String?
    var posterURL: String?
    var streamURL: String
    var mimeType: String
    var tracks: [Track]
    /// Whether the video is a live stream (it has no duration).
    var isLive = false
    /// The clips of the video's ad breaks.
    var breakClips: [AdBreakClip] = []
    /// The video's ad breaks.
    var breaks: [AdBreak] = []

    /// The media information sent to a Cast device in LOAD.
    var mediaInformation: MediaInformation {
        var metadata = MediaMetadata(metadataType: .movie)
        metadata.title = title
        metadata.subtitle = subtitle
        metadata.studio = studio
        metadata.images = [thumbnailURL, posterURL].compactMap { url in
            guard let url else { return nil }
            return url == posterURL
                ? MediaImage(url: url, width: 780, height: 1200) : MediaImage(url: url, width: 480, height: 270)
        }
        let mediaTracks = tracks.map { track in
            MediaTrack(
                trackID: track.id,
                type: MediaTrackType(rawValue: track.type.uppercased()),
                trackContentID: track.contentID,
                trackContentType: track.type.lowercased() == "text" ? "text/vtt" : nil,
                name: track.name,
                language: track.language,
                subtype: track.subtype.map { TextTrackSubtype(rawValue: $0.uppercased()) }
            )
        }
        return MediaInformation(
            contentID: streamURL,
            contentURL: streamURL,
            streamType: isLive ? .live : .buffered,
            contentType: mimeType,
            metadata: metadata,
            duration: isLive ? nil : duration,
            tracks: mediaTracks.isEmpty ? nil : mediaTracks,
            breaks: breaks.isEmpty ? nil : breaks,
            breakClips: breakClips.isEmpty ? nil : breakClips
        )
    }
}
