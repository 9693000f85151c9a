import CastCore
import CastTime

/// A request from the engine to read the media of a `LOAD` (``MediaMode/fetch`` and
/// ``MediaMode/auto``): the device runs the probe off the engine and reports its outcome
/// with `VirtualDeviceEngine.mediaProbed(_:outcome:at:)`.
public struct MediaProbeRequest: Hashable, Sendable {
    /// Identifies the probe; an outcome for an older id (a newer `LOAD` or a `STOP` came
    /// meanwhile) is ignored.
    public let id: UInt64
    /// The media URL (`contentUrl`, else `contentId`).
    public let url: String
    /// The `contentType` the `LOAD` declared.
    public let contentType: String?
    /// When set, the request reads the WebVTT text track with this `trackId` (activated by
    /// a `LOAD` or `EDIT_TRACKS_INFO`), not the item's media.
    public var textTrackID: Int? = nil
}

extension MediaPlayer {
    /// Starts reading the current item's media when the mode asks for it: the item waits in
    /// `LOADING` until ``probeFinished(_:outcome:at:)``.
    mutating func startProbe(at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard settings.mediaMode != .simulate, let current = session, let queue = current.queue,
            let media = queue.currentItem.media, !current.isIdle
        else { return [] }
        let url = media.contentURL ?? media.contentID ?? ""
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            // Not a URL a player fetches (an app's own content id): played as described.
            return []
        }
        let autoplay: Bool
        switch current.phase {
        case .loading(_, let wanted): autoplay = wanted
        case .playing: autoplay = true
        default: autoplay = false
        }
        let id = generator.next()
        updateSession { session in
            session.phase = .loading(until: now, autoplay: autoplay)
            session.probeID = id
            session.anchor = now
        }
        return [.probe(MediaProbeRequest(id: id, url: url, contentType: media.contentType))]
    }

    /// The device finished reading the media of probe `id`.
    mutating func probeFinished(
        _ id: UInt64,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [MediaPlayerOutput] {
        if let trackID = updateSession({ $0.textProbes.removeValue(forKey: id) }) ?? nil {
            return textTrackProbed(trackID, outcome: outcome, at: now)
        }
        guard let current = session, current.probeID == id, current.isLoading else {
            return [.log(DeviceLogEntry(level: .debug, message: "media probe superseded: outcome ignored"))]
        }
        updateSession { $0.probeID = nil }
        let url = current.queue.flatMap { $0.currentItem.media?.contentURL ?? $0.currentItem.media?.contentID } ?? ""
        switch outcome {
        case .success(let result):
            apply(result)
            updateSession { $0.streamID = result.followURL == nil ? nil : id }
            var metadata = ["cast.content-id": url, "cast.live": "\(result.isLive)"]
            if let duration = result.duration { metadata["cast.duration"] = "\(duration)" }
            let log = MediaPlayerOutput.log(DeviceLogEntry(level: .info, message: "media probed", metadata: metadata))
            return [log] + finishLoading(at: now) + startTextTrackProbes(previouslyActive: [], at: now)
        case .failure(let failure) where failure.isUnreachable && settings.mediaMode == .auto:
            let log = MediaPlayerOutput.log(
                DeviceLogEntry(
                    level: .info,
                    message: "media host unreachable: playing simulated media",
                    metadata: ["cast.content-id": url, "cast.reason": failure.reason]
                )
            )
            return [log] + finishLoading(at: now)
        case .failure(let failure):
            return fail(failure, url: url, at: now)
        }
    }

    /// Reads the WebVTT tracks that became active (in `activeTrackIds`, not in
    /// `previouslyActive`) and name an `http(s)` `trackContentId`, as a receiver fetches a text
    /// track when it is shown.
    mutating func startTextTrackProbes(previouslyActive: [Int], at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard settings.mediaMode != .simulate, let current = session, let item = current.queue?.currentItem else {
            return []
        }
        let tracks = item.media?.tracks ?? []
        var outputs: [MediaPlayerOutput] = []
        for trackID in current.activeTrackIDs ?? [] where !previouslyActive.contains(trackID) {
            guard let track = tracks.first(where: { $0.trackID == trackID && $0.type == .text }),
                let url = track.trackContentID, url.hasPrefix("http://") || url.hasPrefix("https://"),
                current.textProbes.count < 8
            else { continue }
            let id = generator.next()
            updateSession { $0.textProbes[id] = trackID }
            outputs.append(
                .probe(MediaProbeRequest(id: id, url: url, contentType: track.trackContentType, textTrackID: trackID))
            )
        }
        return outputs
    }

    /// A text track was read: a bad one is switched off and reported with `ERROR`
    /// `TEXT_UNKNOWN` (600) to every sender, as a receiver's player reports a track it cannot
    /// show; the media plays on.
    private mutating func textTrackProbed(
        _ trackID: Int,
        outcome: Result<MediaProbeResult, MediaLoadFailure>,
        at now: DeviceInstant
    ) -> [MediaPlayerOutput] {
        let failure: MediaLoadFailure
        switch outcome {
        case .success(let result):
            updateSession { session in if !session.isIdle { session.textCues[trackID] = result.cues } }
            return [
                .log(
                    DeviceLogEntry(level: .debug, message: "text track read", metadata: ["cast.track-id": "\(trackID)"])
                )
            ]
        case .failure(let error) where error.isUnreachable && settings.mediaMode == .auto:
            return [.log(DeviceLogEntry(level: .info, message: "text track host unreachable: shown simulated"))]
        case .failure(let error):
            failure = error
        }
        let switchedOff = updateSession { session -> Int?? in
            guard !session.isIdle else { return nil }
            session.activeTrackIDs?.removeAll { $0 == trackID }
            return .some(session.queue?.currentItemID)
        }
        guard let itemID = switchedOff ?? nil else { return [] }
        let error = MediaErrorMessage(
            requestID: 0,
            detailedErrorCode: DetailedErrorCode(rawValue: failure.detailedErrorCode),
            itemID: itemID
        )
        let log = MediaPlayerOutput.log(
            DeviceLogEntry(
                level: .info,
                message: "text track failed",
                metadata: ["cast.track-id": "\(trackID)", "cast.reason": failure.description]
            )
        )
        return [log, .broadcast(Self.encode(error), excluding: nil)] + statusUpdate(at: now, requester: nil)
    }

    /// Whether probe `id` still matters: the current item waits in `LOADING` for it, or it
    /// reads a text track of the current session, which has not ended (`STOP`, an error).
    func isProbePending(_ id: UInt64) -> Bool {
        guard let session else { return false }
        if session.textProbes[id] != nil { return !session.isIdle }
        return session.probeID == id && session.isLoading
    }

    /// Whether the device still reads the open-ended stream of probe `id`: the item it
    /// belongs to is current and not idle.
    func isFollowingStream(_ id: UInt64) -> Bool {
        guard let session, session.streamID == id else { return false }
        return !session.isIdle
    }

    /// The server ended the open-ended stream of probe `id` after `mediaSeconds` of media:
    /// the item ends when playback reaches them, as a receiver's player plays out what it
    /// received. When the clock already passed them (the end was learned late), the item
    /// ends at once, at the media's end: no player shows more media than it received.
    /// Unknown, it ends at once where it is.
    mutating func streamEnded(_ id: UInt64, mediaSeconds: Double?, at now: DeviceInstant) -> [MediaPlayerOutput] {
        guard isFollowingStream(id) else { return [] }
        let seconds = mediaSeconds.flatMap { WireNumber.isValidSeconds($0) ? $0 : nil }
        updateSession { session in
            session.streamID = nil
            session.rebase(to: now)
            session.streamEnd = seconds ?? session.position
        }
        var metadata: [String: String] = [:]
        if let mediaSeconds { metadata["cast.media-seconds"] = "\(mediaSeconds)" }
        return [.log(DeviceLogEntry(level: .info, message: "media stream ended", metadata: metadata))]
    }

    /// Ends the loading phase now: playback begins at the next timeline step.
    private mutating func finishLoading(at now: DeviceInstant) -> [MediaPlayerOutput] {
        let delay = settings.bufferingDelay > .zero ? settings.bufferingDelay : .zero
        updateSession { session in
            if case .loading(_, let autoplay) = session.phase {
                session.phase = .loading(until: now + delay, autoplay: autoplay)
            }
        }
        return []
    }

    /// What the media told: duration, stream type, tracks and picture size of the item.
    private mutating func apply(_ result: MediaProbeResult) {
        guard var queue = session?.queue, var item = Optional(queue.currentItem), var media = item.media else { return }
        if result.isImage {
            media.duration = nil
            media.unknownMembers["mediaCategory"] = "IMAGE"
        } else if result.isLive {
            media.streamType = .live
            media.duration = nil
        } else if let duration = result.duration, WireNumber.isValidSeconds(duration) {
            media.streamType = .buffered
            media.duration = duration
        }
        // The audio track a player plays when the media is read: the first of the file's, as
        // CAF receivers report it in `activeTrackIds`.
        var playing: Int?
        if media.tracks?.isEmpty ?? true, !result.tracks.isEmpty {
            media.tracks = result.tracks.filter { $0.kind != .text }.map { track in
                MediaTrack(
                    trackID: track.number,
                    type: track.kind == .video ? .video : .audio,
                    language: track.language
                )
            }
            playing = media.tracks?.first { $0.type == .audio }?.trackID
        }
        item.media = media
        _ = queue.update([item])
        updateSession { session in
            if let playing, !(session.activeTrackIDs ?? []).contains(playing) {
                session.activeTrackIDs = ((session.activeTrackIDs ?? []) + [playing]).sorted()
            }
            session.queue = queue
            session.probedVideoInfo = result.videoSize.map {
                VideoInfo(width: $0.width, height: $0.height, hdrType: .sdr)
            }
        }
    }

    /// `LOAD_FAILED` to the requester and `ERROR` to every sender, as receivers report media
    /// they cannot play; the session ends `IDLE` with `ERROR`.
    private mutating func fail(_ failure: MediaLoadFailure, url: String, at now: DeviceInstant) -> [MediaPlayerOutput] {
        let ended = updateSession { session -> (itemID: Int?, pending: MediaSession.PendingRequest?) in
            session.rebase(to: now)
            session.phase = .idle(.error)
            session.loadFailure = failure
            defer { session.pendingLoad = nil }
            return (session.queue?.currentItemID, session.pendingLoad)
        }
        let itemID = ended?.itemID ?? nil
        let code = DetailedErrorCode(rawValue: failure.detailedErrorCode)
        var outputs: [MediaPlayerOutput] = [
            .log(
                DeviceLogEntry(
                    level: .info,
                    message: "media load failed",
                    metadata: ["cast.content-id": url, "cast.reason": failure.description]
                )
            )
        ]
        let error = MediaErrorMessage(requestID: 0, detailedErrorCode: code, reason: .genericLoadError, itemID: itemID)
        outputs.append(.broadcast(Self.encode(error), excluding: nil))
        if let pending = ended?.pending ?? nil {
            let failed = LoadFailedMessage(requestID: pending.requestID, itemID: itemID, detailedErrorCode: code)
            outputs.append(reply(failed, to: pending.endpoint))
        }
        return outputs + statusUpdate(at: now, requester: nil)
    }
}
