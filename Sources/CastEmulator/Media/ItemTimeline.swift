import CastCore

/// The playable shape of one queue item: where it starts and ends and its ad breaks.
struct ItemTimeline: Sendable {
    /// The media duration: given, or the configured default for buffered media; `nil` for
    /// live media without one.
    var duration: Double?
    /// Where playback of the item starts.
    var start: Double
    /// Where playback of the item ends; `nil` for endless live media.
    var end: Double?
    /// Breaks inside the content, by position.
    var midRolls: [AdBreak]
    /// Breaks after the content, in order.
    var postRolls: [AdBreak]
    private var clipsByID: [String: AdBreakClip]
    private var defaultClipDuration: Double

    init(item: QueueItem, settings: MediaPlayerSettings) {
        let media = item.media ?? MediaInformation()
        if let duration = media.duration, duration.isFinite, duration >= 0 {
            self.duration = duration
        } else if media.streamType == .live || media.unknownMembers["mediaCategory"] == "IMAGE" {
            // Live media and pictures have no end of their own.
            self.duration = nil
        } else {
            self.duration = settings.defaultMediaDuration
        }
        let start = max(0, item.startTime ?? 0)
        var end = duration
        if let playbackDuration = item.playbackDuration, playbackDuration.isFinite, playbackDuration >= 0 {
            end = min(end ?? .infinity, start + playbackDuration)
        }
        let clampedStart = end.map { min(start, $0) } ?? start
        self.start = clampedStart
        self.end = end.map { max($0, clampedStart + Self.minimumPlayingTime) }
        let breaks = (media.breaks ?? []).filter { $0.position.isFinite }
        let isPostRoll = { (adBreak: AdBreak) -> Bool in
            adBreak.position < 0 || (end.map { adBreak.position >= $0 } ?? false)
        }
        self.midRolls = breaks.filter { !isPostRoll($0) }.sorted { $0.position < $1.position }
        self.postRolls = breaks.filter(isPostRoll)
        self.clipsByID = Dictionary(
            (media.breakClips ?? []).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        self.defaultClipDuration = settings.defaultBreakClipDuration
    }

    /// The clips of a break that can play, with their durations.
    func clips(of adBreak: AdBreak) -> [(clip: AdBreakClip, duration: Double)] {
        (adBreak.breakClipIDs ?? []).compactMap { clipID in
            guard let clip = clipsByID[clipID] else { return nil }
            let duration = clip.duration.flatMap { $0.isFinite ? $0 : nil } ?? defaultClipDuration
            return duration > 0 ? (clip, max(duration, Self.minimumPlayingTime)) : nil
        }
    }

    /// The shortest time an item or a clip plays, so that empty media cannot make the clock
    /// loop at one instant (e.g. a queue of zero-length items repeating without buffering).
    static let minimumPlayingTime: Double = 0.01

    /// The seek target senders use for "the live edge" (2^32 seconds).
    static let liveEdgeSentinel: Double = 4_294_967_296

    /// Clamps a seek target to the playable range. Media without an end accepts any
    /// position from 0, except the live-edge sentinel, which means `liveEdge`.
    func clamp(_ position: Double, liveEdge: Double) -> Double {
        guard position.isFinite else { return end ?? liveEdge }
        guard let end else {
            return position >= Self.liveEdgeSentinel ? max(liveEdge, 0) : max(position, 0)
        }
        return min(max(position, 0), end)
    }
}
