/// What the virtual device learned by reading a media item.
struct MediaProbeResult: Sendable, Equatable {
    /// The kind of a track found in the media.
    enum TrackKind: String, Sendable, Equatable {
        case audio
        case video
        case text
    }

    /// One track of the media.
    struct Track: Sendable, Equatable {
        /// The track's kind.
        var kind: TrackKind
        /// The track's number in the container (MP4 `track_ID`).
        var number: Int
        /// The picture size of a video track.
        var width: Int?
        /// The picture height of a video track.
        var height: Int?
        /// The track's language code, when the container names one.
        var language: String?
        /// The container's codec name (Matroska `CodecID`), when it names one.
        var codec: String? = nil
    }

    /// The duration in seconds; `nil` for live streams and images.
    var duration: Double?
    /// Whether the media is a live stream.
    var isLive = false
    /// The tracks, in container order.
    var tracks: [Track] = []
    /// The URL of an open-ended progressive stream (a live Matroska stream over HTTP with no
    /// length) that the player keeps reading while it plays, as a receiver does: the item
    /// ends when the server ends the stream.
    var followURL: String?
    /// Whether the media is a picture (`mediaCategory` `IMAGE`: shown, no duration).
    var isImage = false
    /// The cues of a WebVTT text track, for the device's screen.
    var cues: [WebVTTCue] = []

    /// The largest picture among the video tracks, for `videoInfo`.
    var videoSize: (width: Int, height: Int)? {
        let sizes = tracks.compactMap { track -> (Int, Int)? in
            guard track.kind == .video, let width = track.width, let height = track.height, width > 0, height > 0
            else { return nil }
            return (width, height)
        }
        return sizes.max { $0.0 * $0.1 < $1.0 * $1.1 }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.duration == rhs.duration && lhs.isLive == rhs.isLive && lhs.tracks == rhs.tracks
    }
}
