import CastCore
import CastTime

/// The playback clock: what happens as time passes, and the state changes shared by requests.
extension MediaPlayer {
    /// Something scheduled on the playback timeline.
    enum TimelineEvent: Hashable, Sendable {
        case loadingDone
        case adBecameSkippable
        case clipEnded
        case breakReached(AdBreak)
        case preloadPoint(itemID: Int)
        case itemEnded
    }

    /// The next instant at which ``advance(to:)`` has work.
    var nextDeadline: DeviceInstant? {
        let event = nextEvent()?.time
        guard let periodic = nextPeriodicStatus, session?.phase == .playing else { return event }
        return event.map { min($0, periodic) } ?? periodic
    }

    /// Handles everything scheduled up to `now`, in order.
    mutating func advance(to now: DeviceInstant) -> [MediaPlayerOutput] {
        var outputs: [MediaPlayerOutput] = []
        var handled = 0
        while let (time, event) = nextEvent(), time <= now {
            handled += 1
            guard handled <= Self.maximumEventsPerAdvance else {
                outputs.append(
                    .log(
                        DeviceLogEntry(
                            level: .warning,
                            message: "media timeline stalled",
                            metadata: ["cast.event": "\(event)"]
                        )
                    )
                )
                break
            }
            outputs += apply(event, at: time)
        }
        return outputs + periodicStatus(at: now)
    }

    /// The unsolicited status due at `now`, if any, and the schedule of the next one. A call
    /// late by less than an interval keeps the device's rhythm (the next status is due one
    /// interval after this one was), so devices started at different times never drift into
    /// step; a later call sends one status, not one per interval missed, and starts afresh.
    private mutating func periodicStatus(at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard let interval = settings.statusInterval, session?.phase == .playing else {
            nextPeriodicStatus = nil
            return []
        }
        guard let due = nextPeriodicStatus else {
            nextPeriodicStatus = now + interval
            return []
        }
        guard due <= now else { return [] }
        let next = due + interval
        nextPeriodicStatus = next > now ? next : now + interval
        return statusUpdate(at: now, requester: nil)
    }

    func nextEvent() -> (time: DeviceInstant, event: TimelineEvent)? {
        guard let session, let queue = session.queue else { return nil }
        switch session.phase {
        case .loading where session.probeID != nil: return nil
        case .loading(let until, _): return (until, .loadingDone)
        case .paused, .idle: return nil
        case .playing: break
        }
        func instant(reaching target: Double, from current: Double) -> DeviceInstant {
            session.anchor + WireNumber.duration(seconds: max(0, target - current) / session.rate)
        }
        if let ad = session.ad {
            if !ad.skippableAnnounced, let whenSkippable = ad.clip.whenSkippable, whenSkippable >= 0,
                whenSkippable < ad.clipDuration
            {
                return (instant(reaching: whenSkippable, from: ad.clipTime), .adBecameSkippable)
            }
            return (instant(reaching: ad.clipDuration, from: ad.clipTime), .clipEnded)
        }
        let timeline = ItemTimeline(item: queue.currentItem, settings: settings)
        var best: (time: DeviceInstant, event: TimelineEvent)?
        func consider(_ time: DeviceInstant, _ event: TimelineEvent) {
            if best.map({ time < $0.time }) ?? true { best = (time, event) }
        }
        if let next = timeline.midRolls.first(where: {
            !session.watchedBreakIDs.contains($0.id) && $0.position >= session.position
        }) {
            consider(instant(reaching: next.position, from: session.position), .breakReached(next))
        }
        if session.preloadedItemID == nil, let end = timeline.end, let next = preloadCandidate(in: queue) {
            let point = max(timeline.start, end - next.preloadTime)
            consider(instant(reaching: point, from: session.position), .preloadPoint(itemID: next.itemID))
        }
        if let end = timeline.end ?? session.streamEnd {
            consider(instant(reaching: end, from: session.position), .itemEnded)
        }
        return best
    }

    /// The item that plays after the current one when it asks to be preloaded.
    private func preloadCandidate(in queue: PlaybackQueue) -> (itemID: Int, preloadTime: Double)? {
        guard let index = queue.indexAfterCurrentEnds(), index != queue.currentIndex,
            let itemID = queue.items[index].itemID,
            let preloadTime = queue.items[index].preloadTime, preloadTime.isFinite, preloadTime > 0
        else { return nil }
        return (itemID, preloadTime)
    }

    private mutating func apply(_ event: TimelineEvent, at time: DeviceInstant) -> [MediaPlayerOutput] {
        guard updateSession({ $0.rebase(to: time) }) != nil else { return [] }
        switch event {
        case .loadingDone:
            let loaded = updateSession { session -> (autoplay: Bool, pending: MediaSession.PendingRequest?)? in
                guard case .loading(_, let autoplay) = session.phase else { return nil }
                defer { session.pendingLoad = nil }
                return (autoplay, session.pendingLoad)
            }
            guard let loaded = loaded ?? nil else { return [] }
            beginPlayback(autoplay: loaded.autoplay, at: time)
            let requester = loaded.pending.map {
                RequestContext(requester: $0.endpoint, requestID: $0.requestID, now: time)
            }
            return statusUpdate(at: time, requester: requester)
        case .adBecameSkippable:
            updateSession { session in
                guard var ad = session.ad else { return }
                if let whenSkippable = ad.clip.whenSkippable { ad.clipTime = max(ad.clipTime, whenSkippable) }
                ad.skippableAnnounced = true
                session.ad = ad
            }
            return statusUpdate(at: time, requester: nil)
        case .clipEnded:
            updateSession { session in
                if let duration = session.ad?.clipDuration { session.ad?.clipTime = duration }
            }
            return endClip(at: time) + statusUpdate(at: time, requester: nil)
        case .breakReached(let adBreak):
            updateSession { $0.position = adBreak.position }
            guard enterBreak(adBreak, resumeAt: adBreak.position, isPostRoll: false) else { return [] }
            return statusUpdate(at: time, requester: nil)
        case .preloadPoint(let itemID):
            updateSession { $0.preloadedItemID = itemID }
            return statusUpdate(at: time, requester: nil)
        case .itemEnded:
            if let end = currentTimeline?.end ?? session?.streamEnd { updateSession { $0.position = end } }
            return finishItemOrPlayPostRoll(at: time) + statusUpdate(at: time, requester: nil)
        }
    }

    /// The timeline of the current item.
    var currentTimeline: ItemTimeline? {
        guard let item = session?.queue?.currentItem else { return nil }
        return ItemTimeline(item: item, settings: settings)
    }

    // MARK: Shared state changes (they send no status; callers do)

    /// Starts playing (or pauses) at the session's position; a break placed before the
    /// position that was never watched plays first, as after a seek over it.
    mutating func beginPlayback(autoplay: Bool, at now: DeviceInstant) {
        updateSession { session in
            session.phase = autoplay ? .playing : .paused
            session.anchor = now
        }
        playBreakSkipped(from: 0, includingStart: true)
    }

    /// Plays the last unwatched break between `from` and the position, if any.
    mutating func playBreakSkipped(from: Double, includingStart: Bool) {
        guard let session, let timeline = currentTimeline else { return }
        let target = session.position
        let skipped = timeline.midRolls.last { adBreak in
            !session.watchedBreakIDs.contains(adBreak.id) && adBreak.position <= target
                && (includingStart ? adBreak.position >= from : adBreak.position > from)
        }
        if let skipped {
            _ = enterBreak(skipped, resumeAt: target, isPostRoll: false)
        }
    }

    /// Starts an ad break; returns `false` (and marks it watched) when it has no playable clip.
    @discardableResult
    mutating func enterBreak(_ adBreak: AdBreak, resumeAt resumePosition: Double, isPostRoll: Bool) -> Bool {
        guard let timeline = currentTimeline else { return false }
        let clips = timeline.clips(of: adBreak)
        guard !clips.isEmpty else {
            updateSession { _ = $0.watchedBreakIDs.insert(adBreak.id) }
            return false
        }
        let ad = MediaSession.AdPlayback(
            breakID: adBreak.id,
            clips: clips.map(\.clip),
            clipDurations: clips.map(\.duration),
            clipIndex: 0,
            clipTime: 0,
            resumePosition: resumePosition,
            isPostRoll: isPostRoll,
            skippableAnnounced: false
        )
        updateSession { $0.ad = ad }
        return true
    }

    /// Ends the playing clip: the next clip of the break starts, or the break ends.
    mutating func endClip(at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard var ad = session?.ad else { return [] }
        if ad.clipIndex + 1 < ad.clips.count {
            ad.clipIndex += 1
            ad.clipTime = 0
            ad.skippableAnnounced = false
            updateSession { $0.ad = ad }
            return []
        }
        updateSession { session in
            session.watchedBreakIDs.insert(ad.breakID)
            session.ad = nil
            session.position = ad.resumePosition
        }
        return ad.isPostRoll ? finishItemOrPlayPostRoll(at: now) : []
    }

    /// The content of the current item ended: a post-roll plays, or the item is done.
    mutating func finishItemOrPlayPostRoll(at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard let session, let timeline = currentTimeline else { return [] }
        for postRoll in timeline.postRolls where !session.watchedBreakIDs.contains(postRoll.id) {
            if enterBreak(postRoll, resumeAt: session.position, isPostRoll: true) { return [] }
        }
        return finishItem(at: now)
    }

    /// The current item is done: the next one plays, or the session finishes.
    mutating func finishItem(at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard var queue = session?.queue, let next = queue.indexAfterCurrentEnds() else {
            updateSession { session in
                session.phase = .idle(.finished)
                session.preloadedItemID = nil
            }
            return []
        }
        // The item that ends the round, before a new round reshuffles the queue.
        let nextItemID = queue.items[next].itemID
        var target = next
        if next <= queue.currentIndex, queue.repeatMode == .allAndShuffle, queue.items.count > 1 {
            target = queue.reshuffleForNewRound(using: &generator)
            updateSession { $0.queue = queue }
        }
        let preloaded = session?.preloadedItemID != nil && session?.preloadedItemID == nextItemID
        return moveToItem(at: target, startTime: nil, at: now, preloaded: preloaded)
    }

    /// Makes the item at `index` current and starts loading it (at once when preloaded or
    /// when loading takes no time).
    mutating func moveToItem(
        at index: Int,
        startTime: Double?,
        at now: DeviceInstant,
        preloaded: Bool = false
    ) -> [MediaPlayerOutput] {
        let settings = settings
        let moved = updateSession { session -> QueueItem? in
            guard session.queue != nil else { return nil }
            session.queue?.setCurrent(index: index)
            guard let item = session.queue?.currentItem else { return nil }
            let timeline = ItemTimeline(item: item, settings: settings)
            session.ad = nil
            session.preloadedItemID = nil
            session.probeID = nil
            session.textProbes = [:]
            session.streamID = nil
            session.streamEnd = nil
            session.probedVideoInfo = nil
            session.watchedBreakIDs = Set((item.media?.breaks ?? []).filter { $0.isWatched == true }.map(\.id))
            session.activeTrackIDs = item.activeTrackIDs
            session.position = startTime.map { timeline.clamp($0, liveEdge: $0) } ?? timeline.start
            session.anchor = now
            return item
        }
        guard let item = moved ?? nil else { return [] }
        if let media = item.media, settings.isUnloadable(media) {
            updateSession { $0.phase = .idle(.error) }
            let error = MediaErrorMessage(
                requestID: 0,
                detailedErrorCode: .mediaSourceNotSupported,
                reason: .genericLoadError,
                itemID: item.itemID
            )
            return [.broadcast(Self.encode(error), excluding: nil)]
        }
        let autoplay = item.autoplay ?? true
        if preloaded || settings.bufferingDelay <= .zero {
            beginPlayback(autoplay: autoplay, at: now)
        } else {
            updateSession { $0.phase = .loading(until: now + settings.bufferingDelay, autoplay: autoplay) }
        }
        return []
    }

    /// Forgets a preloaded item that is no longer the one that plays next.
    mutating func dropStalePreload() {
        guard let preloaded = session?.preloadedItemID, let queue = session?.queue else { return }
        let next = queue.indexAfterCurrentEnds().flatMap { queue.items[$0].itemID }
        if next != preloaded || next == queue.currentItemID { updateSession { $0.preloadedItemID = nil } }
    }

    /// Ends the session because something replaces it: a pending `LOAD` is cancelled and an
    /// active session reports `IDLE` with `reason`.
    mutating func endSession(reason: IdleReason, at now: DeviceInstant) -> [MediaPlayerOutput] {
        let ended = updateSession { session -> (pending: MediaSession.PendingRequest?, itemID: Int?, wasActive: Bool) in
            let pending = session.pendingLoad
            session.pendingLoad = nil
            let wasActive = !session.isIdle
            if wasActive {
                session.rebase(to: now)
                session.phase = .idle(reason)
                session.ad = nil
                session.preloadedItemID = nil
            }
            return (pending, session.queue?.currentItemID, wasActive)
        }
        guard let ended else { return [] }
        var outputs: [MediaPlayerOutput] = []
        if let pending = ended.pending {
            outputs.append(
                reply(LoadCancelledMessage(requestID: pending.requestID, itemID: ended.itemID), to: pending.endpoint)
            )
        }
        if ended.wasActive { outputs += statusUpdate(at: now, requester: nil) }
        return outputs
    }
}
