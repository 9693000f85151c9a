import CastCore

/// An HLS playlist (RFC 8216) as far as the virtual device needs it: a master playlist's
/// variants, or a media playlist's segments, their total duration and whether it is live.
enum HLSPlaylist: Sendable, Equatable {
    /// A master playlist: the variant stream URIs, in playlist order (relative as written).
    case master(variants: [String])
    /// A media playlist.
    case media(HLSMediaPlaylist)

    /// The largest playlist the device reads.
    static let maximumSize = 1 << 20
    /// The most segments the device accepts in one media playlist.
    static let maximumSegments = 100_000

    /// Parses playlist text.
    /// - Throws: ``MediaProbeError`` when the text is not a playlist (no `#EXTM3U`), a tag
    ///   value is malformed, or a master playlist names no variant.
    static func parse(_ bytes: [UInt8]) throws(MediaProbeError) -> HLSPlaylist {
        guard bytes.count <= maximumSize else {
            throw MediaProbeError(code: .tooLarge, context: "playlist of \(bytes.count) bytes")
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            .map { line -> String in
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                return String(trimmed.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }
        guard lines.first == "#EXTM3U" else {
            throw MediaProbeError(code: .notSupported, context: "playlist without #EXTM3U")
        }
        var variants: [String] = []
        var expectsVariantURI = false
        var media = HLSMediaPlaylist()
        var pendingDuration: Double?
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                expectsVariantURI = true
            } else if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).prefix { $0 != "," }
                guard let duration = Double(value), duration.isFinite, duration >= 0 else {
                    throw MediaProbeError(code: .malformed, context: "#EXTINF value \(value.prefix(32))")
                }
                pendingDuration = duration
            } else if line.hasPrefix("#EXT-X-TARGETDURATION:") {
                guard let value = Int(line.dropFirst("#EXT-X-TARGETDURATION:".count)), value >= 0 else {
                    throw MediaProbeError(code: .malformed, context: "#EXT-X-TARGETDURATION")
                }
                media.targetDuration = value
            } else if line.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") {
                guard let value = Int(line.dropFirst("#EXT-X-MEDIA-SEQUENCE:".count)), value >= 0 else {
                    throw MediaProbeError(code: .malformed, context: "#EXT-X-MEDIA-SEQUENCE")
                }
                media.mediaSequence = value
            } else if line == "#EXT-X-ENDLIST" {
                media.hasEndList = true
            } else if line.hasPrefix("#EXT-X-PLAYLIST-TYPE:") {
                media.playlistType = String(line.dropFirst("#EXT-X-PLAYLIST-TYPE:".count))
            } else if line.hasPrefix("#") {
                continue
            } else if expectsVariantURI {
                variants.append(line)
                expectsVariantURI = false
            } else {
                guard let duration = pendingDuration else {
                    throw MediaProbeError(code: .malformed, context: "segment URI without #EXTINF")
                }
                guard media.segmentDurations.count < maximumSegments else {
                    throw MediaProbeError(code: .tooLarge, context: "more than \(maximumSegments) segments")
                }
                media.segmentDurations.append(duration)
                pendingDuration = nil
            }
        }
        if !variants.isEmpty { return .master(variants: variants) }
        if expectsVariantURI {
            throw MediaProbeError(code: .malformed, context: "#EXT-X-STREAM-INF without a URI")
        }
        guard !media.segmentDurations.isEmpty else {
            throw MediaProbeError(code: .malformed, context: "media playlist without segments")
        }
        // Each #EXTINF is finite, but their sum may not be: a duration no clock holds is an
        // error, not a reason to play something else.
        let total = media.listedDuration
        guard WireNumber.isValidSeconds(total) else {
            throw MediaProbeError(
                code: .malformed,
                context: "#EXTINF durations sum to \(total) s, beyond \(WireNumber.maximumSeconds) s"
            )
        }
        return .media(media)
    }
}

/// A parsed HLS media playlist.
struct HLSMediaPlaylist: Sendable, Equatable {
    /// `#EXT-X-TARGETDURATION`, seconds.
    var targetDuration: Int?
    /// `#EXT-X-MEDIA-SEQUENCE`: the number of the first segment listed.
    var mediaSequence = 0
    /// Whether `#EXT-X-ENDLIST` is present.
    var hasEndList = false
    /// `#EXT-X-PLAYLIST-TYPE` (`VOD`, `EVENT`).
    var playlistType: String?
    /// Each segment's `#EXTINF` duration, seconds.
    var segmentDurations: [Double] = []

    /// The sum of the listed segments' durations.
    var listedDuration: Double { segmentDurations.reduce(0, +) }

    /// Whether the stream is live: no `#EXT-X-ENDLIST` and not a VOD playlist.
    var isLive: Bool { !hasEndList && playlistType != "VOD" }

    /// Whether the window slides (an EVENT playlist only grows).
    var isMovingWindow: Bool { isLive && playlistType != "EVENT" }

    /// What the probe reports: the duration of a VOD playlist, none for a live one.
    var probeResult: MediaProbeResult {
        MediaProbeResult(duration: isLive ? nil : listedDuration, isLive: isLive, tracks: [])
    }

    /// The seekable range of a live playlist in stream time, the start counted from segment
    /// zero using the target duration for segments no longer listed.
    var liveSeekableRange: (start: Double, end: Double) {
        let start = Double(mediaSequence) * Double(targetDuration ?? 0)
        return (start, start + listedDuration)
    }
}
