import CastCore
import CastTime

/// One media session: what a `LOAD` started, until the next `LOAD`.
struct MediaSession: Sendable {
    /// What the player is doing.
    enum Phase: Hashable, Sendable {
        /// Loading (reported as `BUFFERING`) until an instant; then playing or paused.
        case loading(until: DeviceInstant, autoplay: Bool)
        case playing
        case paused
        /// Ended; the status keeps the reason.
        case idle(IdleReason)
    }

    /// An ad break in progress.
    struct AdPlayback: Hashable, Sendable {
        var breakID: String
        var clips: [AdBreakClip]
        var clipDurations: [Double]
        var clipIndex: Int
        /// Seconds played of the current clip, at the session's anchor.
        var clipTime: Double
        /// Where content resumes after the break.
        var resumePosition: Double
        /// Whether the break plays after the end of the content.
        var isPostRoll: Bool
        /// Whether the status announcing that the clip became skippable was sent.
        var skippableAnnounced: Bool

        var clip: AdBreakClip { clips[clipIndex] }
        var clipDuration: Double { clipDurations[clipIndex] }
        var elapsedBeforeClip: Double { clipDurations[..<clipIndex].reduce(0, +) }
    }

    /// A request whose reply waits for the load to complete.
    struct PendingRequest: Hashable, Sendable {
        var endpoint: SenderEndpoint
        var requestID: Int
    }

    var id: Int
    /// The queue; `nil` after `STOP` removed it.
    var queue: PlaybackQueue?
    var phase: Phase
    var rate: Double
    /// The instant ``position`` (or the ad's clip time) was last brought up to date.
    var anchor: DeviceInstant
    /// The content position in seconds at ``anchor``.
    var position: Double
    var ad: AdPlayback?
    var activeTrackIDs: [Int]?
    var textTrackStyle: TextTrackStyle?
    var preloadedItemID: Int?
    var watchedBreakIDs: Set<String> = []
    /// The `LOAD` whose reply waits for loading to finish.
    var pendingLoad: PendingRequest?
    /// The load credentials, as `MEDIA_STATUS` `customData` shows them for Cast Connect apps.
    var loadCredentials: JSONValue?
    /// The probe the current item waits for while it is read (``MediaMode/fetch``); the
    /// status then reports `IDLE` with `extendedStatus` `LOADING`.
    var probeID: UInt64?
    /// The probe whose open-ended stream the device keeps reading while the item plays
    /// (``MediaProbeResult/followURL``); the item ends when that stream does.
    var streamID: UInt64?
    /// The text-track reads in flight, by probe id: the `trackId` each reads.
    var textProbes: [UInt64: Int] = [:]
    /// Where the current item ends because its open-ended stream ended there.
    var streamEnd: Double?
    /// The picture size read from the current item's media.
    var probedVideoInfo: VideoInfo?
    /// Why the current item failed to load, for the device's screen.
    var loadFailure: MediaLoadFailure?
    /// The cues of the WebVTT text tracks read so far, by `trackId`, for the screen.
    var textCues: [Int: [WebVTTCue]] = [:]

    var isIdle: Bool {
        if case .idle = phase { return true }
        return false
    }

    var isLoading: Bool {
        if case .loading = phase { return true }
        return false
    }

    /// The content position and ad clip time at `now`, without changing the session.
    func values(at now: DeviceInstant) -> (position: Double, clipTime: Double?) {
        guard phase == .playing, now > anchor else { return (position, ad?.clipTime) }
        let elapsed = (now - anchor).secondsValue * rate
        if let ad {
            return (position, min(ad.clipTime + elapsed, ad.clipDuration))
        }
        // Saturates at the end of the wire range: a live stream loaded at 10^10 s would
        // otherwise report positions that no sender (nor this device) accepts.
        return (min(position + elapsed, WireNumber.maximumSeconds), nil)
    }

    /// Folds the time played since ``anchor`` into the position.
    mutating func rebase(to now: DeviceInstant) {
        guard now > anchor else { return }
        let (position, clipTime) = values(at: now)
        self.position = position
        if let clipTime { ad?.clipTime = clipTime }
        anchor = now
    }
}
