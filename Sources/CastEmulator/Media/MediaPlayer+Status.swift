import CastCore
import CastTime

/// The `MEDIA_STATUS` the player reports.
extension MediaPlayer {
    /// The status at `now`, or `nil` before the first `LOAD`.
    func status(at now: DeviceInstant) -> MediaStatus? {
        guard let session else { return nil }
        let (position, clipTime) = session.values(at: now)
        var status = MediaStatus(mediaSessionID: session.id)
        status.playbackRate = session.rate
        switch session.phase {
        case .loading where session.probeID != nil:
            // The media is being read: receivers report IDLE with an extended LOADING state.
            status.playerState = .idle
        case .loading: status.playerState = .buffering
        case .playing: status.playerState = .playing
        case .paused: status.playerState = .paused
        case .idle(let reason):
            status.playerState = .idle
            status.idleReason = reason
        }
        status.currentTime = position
        status.supportedMediaCommands = supportedCommands(at: now)
        status.volume = volume
        if settings.statusShape.reportsFloat32Volume, let level = volume.level {
            status.volume?.level = DeviceProfile.float32(level)
        }
        if let queue = session.queue {
            status.media = reportedMedia(of: queue.currentItem, in: session)
            // An item shorter than the minimum playing time (10 ms) still plays that long;
            // the position reported never passes the media's own duration.
            if let duration = status.media?.duration, duration >= 0, let time = status.currentTime, time > duration {
                status.currentTime = duration
            }
            status.activeTrackIDs = session.activeTrackIDs
            status.currentItemID = queue.currentItemID
            if session.isLoading { status.loadingItemID = queue.currentItemID }
            status.preloadedItemID = session.preloadedItemID
            let shape = settings.statusShape
            if queue.items.count > 1 || (shape.listsSingleItemQueues && !queue.items.isEmpty) {
                status.items = queue.statusWindow
            }
            status.repeatMode = queue.repeatMode
            status.queueData = queue.queueData
            if shape.reportsSequenceNumber { status.sequenceNumber = queue.sequenceNumber }
            if let videoInfo = session.probedVideoInfo, shape.videoInfo != nil {
                status.videoInfo = videoInfo
            } else if let videoInfo = shape.videoInfo, status.media?.contentType?.hasPrefix("video/") == true {
                status.videoInfo = videoInfo
            }
            if session.probeID != nil {
                status.extendedStatus = ExtendedMediaStatus(
                    playerState: .loading,
                    mediaSessionID: session.id,
                    media: status.media
                )
                status.media = nil
            }
        }
        if let ad = session.ad, let clipTime {
            status.breakStatus = AdBreakStatus(
                breakID: ad.breakID,
                breakClipID: ad.clip.id,
                currentBreakTime: ad.elapsedBeforeClip + clipTime,
                currentBreakClipTime: clipTime,
                whenSkippable: ad.clip.whenSkippable
            )
        }
        if settings.reportsCredentials {
            status.customData = credentialsReport(session)
        }
        return status
    }

    /// The commands the player accepts at `now`.
    func supportedCommands(at now: DeviceInstant) -> MediaCommands {
        guard let session, let queue = session.queue, !session.isIdle else { return [] }
        var commands: MediaCommands = [.pause, .streamVolume, .streamMute, .editTracks, .playbackRate]
        if let ad = session.ad {
            if let whenSkippable = ad.clip.whenSkippable, let clipTime = session.values(at: now).clipTime,
                clipTime >= whenSkippable
            {
                commands.insert(.skipAd)
            }
        } else {
            commands.insert(.seek)
        }
        if queue.index(offsetBy: 1) != nil { commands.insert(.queueNext) }
        if queue.index(offsetBy: -1) != nil { commands.insert(.queuePrevious) }
        if queue.items.count > 1 { commands.formUnion([.queueShuffle, .queueRepeat]) }
        return commands
    }

    /// The media of an item as the status shows it: with the stream type and duration the
    /// player found (media loaded without a stream type plays as buffered), watched breaks
    /// marked, and the text-track style in use. No duration is shown while the media is read.
    private func reportedMedia(of item: QueueItem, in session: MediaSession) -> MediaInformation? {
        guard var media = item.media else { return nil }
        if media.streamType == nil || media.streamType == .unspecified {
            media.streamType = .buffered
        }
        // While the media is being read its duration is not known yet: the simulated one
        // (`mediaDurationSeconds`) is only for media that is not read.
        if media.duration == nil, session.probeID == nil,
            let duration = ItemTimeline(item: item, settings: settings).duration
        {
            media.duration = duration
        }
        if let breaks = media.breaks {
            media.breaks = breaks.map { adBreak in
                var adBreak = adBreak
                adBreak.isWatched = session.watchedBreakIDs.contains(adBreak.id)
                return adBreak
            }
        }
        if let style = session.textTrackStyle {
            media.textTrackStyle = style
        }
        return media
    }

    /// What a Cast Connect app shows of the credentials it received.
    private func credentialsReport(_ session: MediaSession) -> JSONValue {
        var launch: JSONValue = nil
        if let credentials = settings.launchCredentials {
            launch = [:]
            launch["credentials"] = credentials.credentials.map(JSONValue.string)
            launch["credentialsType"] = credentials.credentialsType.map(JSONValue.string)
        }
        return [
            "appType": .string(settings.appType.rawValue),
            "launchCredentials": launch,
            "loadCredentials": session.loadCredentials ?? nil,
        ]
    }
}
