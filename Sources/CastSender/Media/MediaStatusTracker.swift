import CastTime

/// The media status of a session as the sender knows it: every MEDIA_STATUS merged in,
/// what changed for the listeners, and the stream position extrapolated between statuses
/// (cast-reference §14.3).
struct MediaStatusTracker: Sendable {
    /// What a status update changed.
    struct Changes: OptionSet, Hashable, Sendable {
        let rawValue: Int
        /// A status arrived (always set by ``MediaStatusTracker/apply(_:now:)``).
        static let status = Changes(rawValue: 1)
        /// A new media session id.
        static let mediaSession = Changes(rawValue: 2)
        /// The media metadata differs.
        static let metadata = Changes(rawValue: 4)
        /// The queue (items, current item, repeat mode) differs.
        static let queue = Changes(rawValue: 8)
        /// The preloaded item differs.
        static let preload = Changes(rawValue: 16)
    }

    /// The merged status, `nil` when there is no media session.
    private(set) var status: MediaStatus?
    /// When ``status`` was received.
    private(set) var receivedAt: CastInstant?
    /// The position last known, kept after the media session or the session ends.
    private(set) var lastKnownStreamPosition: Double = 0
    /// The player state last known, kept after the media session or the session ends.
    private(set) var lastKnownPlayerState: PlayerState?
    /// The idle reason last known.
    private(set) var lastKnownIdleReason: IdleReason?
    private var pendingSeek: (requestID: Int, target: Double)?

    /// Merges the statuses of one MEDIA_STATUS message; an empty list means no media session.
    mutating func apply(_ statuses: [MediaStatus], now: CastInstant) -> Changes {
        var changes: Changes = .status
        guard var incoming = statuses.first else {
            if let old = status {
                remember(old, position: approximateStreamPosition(now: now))
                changes.insert(.mediaSession)
                if old.items?.isEmpty == false || old.currentItemID != nil { changes.insert(.queue) }
            }
            status = nil
            receivedAt = now
            return changes
        }
        // A load in progress (IDLE with extendedStatus LOADING) reads as LOADING with the media
        // being loaded, as GCK reports it; extendedStatus stays as received.
        if incoming.isLoading {
            incoming.media = incoming.effectiveMedia
            incoming.playerState = .loading
        }
        let previous = status
        if let previous, previous.mediaSessionID == incoming.mediaSessionID {
            if incoming.media == nil { incoming.media = previous.media }
            if incoming.items == nil { incoming.items = previous.items }
            if incoming.queueData == nil { incoming.queueData = previous.queueData }
            if incoming.repeatMode == nil { incoming.repeatMode = previous.repeatMode }
            if incoming.supportedMediaCommands == nil {
                incoming.supportedMediaCommands = previous.supportedMediaCommands
            }
            if incoming.volume == nil { incoming.volume = previous.volume }
            if incoming.playbackRate == nil { incoming.playbackRate = previous.playbackRate }
        } else {
            changes.insert(.mediaSession)
        }
        if incoming.media?.metadata != previous?.media?.metadata { changes.insert(.metadata) }
        if !Self.sameItemIDs(incoming.items, previous?.items)
            || incoming.currentItemID != previous?.currentItemID
            || incoming.repeatMode != previous?.repeatMode
        {
            changes.insert(.queue)
        }
        if incoming.preloadedItemID != previous?.preloadedItemID { changes.insert(.preload) }
        status = incoming
        receivedAt = now
        remember(incoming, position: approximateStreamPosition(now: now))
        return changes
    }

    /// A SEEK was sent: until it settles, the position is its target.
    mutating func seekStarted(requestID: Int, absolute: Double?, relative: Double?, now: CastInstant) {
        let base = approximateStreamPosition(now: now)
        let target = absolute ?? (base + (relative ?? 0))
        pendingSeek = (requestID, max(0, target))
    }

    /// The SEEK with `requestID` settled (reply, error or abort).
    mutating func seekSettled(requestID: Int) {
        if pendingSeek?.requestID == requestID { pendingSeek = nil }
    }

    /// Forgets the media session (the session ended); the last known values stay.
    mutating func reset(now: CastInstant) {
        if let status { remember(status, position: approximateStreamPosition(now: now)) }
        status = nil
        receivedAt = nil
        pendingSeek = nil
    }

    /// The stream position now, extrapolated from the last status.
    func approximateStreamPosition(now: CastInstant) -> Double {
        guard let status, let receivedAt else { return 0 }
        if let pendingSeek { return clamp(pendingSeek.target, status) }
        let position = status.currentTime ?? 0
        let rate = status.playbackRate ?? 1
        // A paused (or stalled) position is clamped too: a device's negative or past-the-end
        // currentTime never reaches the seek bar.
        guard status.playerState == .playing, rate != 0 else { return clamp(position, status) }
        let elapsed = max(0, Self.seconds(receivedAt.duration(to: now)))
        return clamp(position + elapsed * rate, status)
    }

    /// The live seekable range now, extrapolated (`end` at rate 1 unless the live stream is
    /// done; `start` only for a moving window).
    func approximateLiveSeekableRange(now: CastInstant) -> (start: Double, end: Double)? {
        guard let range = status?.liveSeekableRange, let start = range.start, let end = range.end,
            let receivedAt
        else { return nil }
        let elapsed = max(0, Self.seconds(receivedAt.duration(to: now)))
        if range.isLiveDone == true { return (min(start, end), end) }
        let newEnd = end + elapsed
        let newStart = range.isMovingWindow == true ? start + elapsed : start
        return (min(newStart, newEnd), newEnd)
    }

    /// Seconds since the last status, or `nil` before the first.
    func timeSinceLastStatus(now: CastInstant) -> Double? {
        receivedAt.map { Self.seconds($0.duration(to: now)) }
    }

    private mutating func remember(_ status: MediaStatus, position: Double) {
        lastKnownStreamPosition = position
        lastKnownPlayerState = status.playerState
        lastKnownIdleReason = status.idleReason
    }

    private func clamp(_ position: Double, _ status: MediaStatus) -> Double {
        var value = max(0, position)
        if let duration = status.media?.duration, duration > 0 { value = min(value, duration) }
        return value
    }

    /// Whether two queue windows list the same item ids in the same order (both absent counts
    /// as the same), compared in place: a status arrives every second on every session.
    static func sameItemIDs(_ lhs: [QueueItem]?, _ rhs: [QueueItem]?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let lhs?, let rhs?):
            // By index: iterating would copy each item (and retain all its members) to read one Int.
            guard lhs.count == rhs.count else { return false }
            for index in lhs.indices where lhs[index].itemID != rhs[index].itemID { return false }
            return true
        default: return false
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
