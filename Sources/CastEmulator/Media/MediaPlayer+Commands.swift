import CastCore
import CastTime

/// The requests of the media namespace.
extension MediaPlayer {
    // MARK: Loading

    /// `LOAD` and `QUEUE_LOAD`: replaces the media session.
    mutating func load(
        _ data: LoadRequestData,
        context: RequestContext,
        forceFailure: Bool
    ) -> [MediaPlayerOutput] {
        var items: [QueueItem]
        var startIndex = 0
        var repeatMode = RepeatMode.off
        var description: QueueData?
        var startTime = data.currentTime
        if let queueData = data.queueData, let queueItems = queueData.items, !queueItems.isEmpty {
            items = queueItems
            startIndex = queueData.startIndex ?? 0
            startTime = data.currentTime ?? queueData.startTime
            if queueData.shuffle == true {
                items.shuffle(using: &generator)
            }
        } else if let media = data.media {
            // A LOAD without autoplay plays; the item says so, as receivers list it.
            items = [QueueItem(media: media, autoplay: data.autoplay ?? true, activeTrackIDs: data.activeTrackIDs)]
        } else {
            return invalidRequest(.invalidParams, context)
        }
        if var queueData = data.queueData {
            repeatMode = queueData.repeatMode ?? .off
            queueData.items = nil
            queueData.startIndex = nil
            queueData.startTime = nil
            queueData.shuffle = nil
            description = queueData
        }
        guard items.count <= settings.maximumQueueItems, items.indices.contains(startIndex),
            items.allSatisfy({ $0.media != nil && $0.hasValidWireNumbers }),
            // The start time in force: LOAD's currentTime, or QUEUE_LOAD's (queueData.startTime).
            WireNumber.isValidSeconds(startTime),
            data.playbackRate.map({ WireNumber.seconds($0) != nil }) ?? true
        else {
            return invalidRequest(.invalidParams, context)
        }
        var outputs = endSession(reason: .interrupted, at: context.now)
        let queue = PlaybackQueue(items: items, startIndex: startIndex, repeatMode: repeatMode, queueData: description)
        let first = queue.currentItem
        var rate = data.playbackRate ?? 1
        if !rate.isFinite { rate = 1 }
        var started = MediaSession(
            id: makeSessionID(),
            queue: queue,
            phase: .paused,
            rate: min(max(rate, Self.playbackRates.lowerBound), Self.playbackRates.upperBound),
            anchor: context.now,
            position: 0
        )
        started.loadCredentials = Self.credentials(of: data)
        start(started)
        var loaded = [
            "cast.content-id": first.media?.contentID ?? first.media?.contentURL ?? "",
            "cast.item-count": "\(queue.items.count)",
            "cast.source-id": context.requester.senderID,
        ]
        if let customData = data.customData { loaded["cast.custom-data"] = "\(customData)" }
        outputs.append(.log(DeviceLogEntry(level: .info, message: "media load requested", metadata: loaded)))
        if let credentials = started.loadCredentials {
            outputs.append(
                .log(
                    DeviceLogEntry(
                        level: .info,
                        message: "load credentials received",
                        metadata: ["cast.credentials": "\(credentials)", "cast.source-id": context.requester.senderID]
                    )
                )
            )
        }
        if forceFailure || first.media.map(settings.isUnloadable) ?? false {
            var reason = MediaLoadFailure.notSupported("the media cannot be played")
            if forceFailure {
                reason.detailedErrorName = "LOAD_FAILED"
                reason.detailedErrorCode = DetailedErrorCode.loadFailed.rawValue
                reason.reason = "the device was told to fail this load"
            }
            updateSession {
                $0.phase = .idle(.error)
                $0.loadFailure = reason
            }
            let failure = LoadFailedMessage(
                requestID: context.requestID,
                itemID: first.itemID,
                detailedErrorCode: forceFailure ? .loadFailed : .mediaSourceNotSupported
            )
            outputs.append(reply(failure, to: context.requester))
            return outputs + statusUpdate(at: context.now, requester: nil)
        }
        outputs += moveToItem(at: startIndex, startTime: startTime, at: context.now)
        outputs += startProbe(at: context.now)
        let waits = updateSession { session -> Bool in
            if data.activeTrackIDs != nil { session.activeTrackIDs = data.activeTrackIDs }
            if let autoplay = data.autoplay, case .loading(let until, _) = session.phase {
                session.phase = .loading(until: until, autoplay: autoplay)
            } else if data.autoplay == false, session.phase == .playing {
                session.phase = .paused
            }
            guard session.isLoading else { return false }
            session.pendingLoad = MediaSession.PendingRequest(endpoint: context.requester, requestID: context.requestID)
            return true
        }
        return outputs + statusUpdate(at: context.now, requester: waits == true ? nil : context)
    }

    /// The playback rates a sender may set.
    static let playbackRates: ClosedRange<Double> = 0.5...2.0

    /// The load credentials of a request, as the status of a Cast Connect app shows them.
    private static func credentials(of data: LoadRequestData) -> JSONValue? {
        var report: JSONValue = [:]
        report["credentials"] = data.credentials.map(JSONValue.string)
        report["credentialsType"] = data.credentialsType.map(JSONValue.string)
        report["atvCredentials"] = data.atvCredentials.map(JSONValue.string)
        report["atvCredentialsType"] = data.atvCredentialsType.map(JSONValue.string)
        return report.objectValue?.isEmpty == false ? report : nil
    }

    // MARK: Playback

    /// `PLAY`, `PAUSE`, `STOP`, `SKIP_AD`, `QUEUE_NEXT`, `QUEUE_PREV`, `QUEUE_GET_ITEM_IDS`.
    mutating func sessionCommand(_ type: CastMessageType, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session else { return [] }
        switch type {
        case .queueGetItemIDs:
            let ids = QueueItemIDsMessage(
                requestID: context.requestID,
                itemIDs: current.queue?.itemIDs ?? [],
                sequenceNumber: current.queue?.sequenceNumber ?? 0
            )
            return [reply(ids, to: context.requester)]
        case _ where current.isIdle:
            return invalidPlayerState(context)
        case .play, .pause:
            let play = type == .play
            switch current.phase {
            case .loading(let until, _):
                updateSession { $0.phase = .loading(until: until, autoplay: play) }
            case .playing where !play:
                updateSession { $0.phase = .paused }
            case .paused where play:
                updateSession { $0.phase = .playing }
            default:
                return statusReply(to: context)
            }
            return statusUpdate(at: context.now, requester: context)
        case .stop:
            var outputs: [MediaPlayerOutput] = []
            if let pending = current.pendingLoad {
                let cancelled = LoadCancelledMessage(requestID: pending.requestID, itemID: current.queue?.currentItemID)
                outputs.append(reply(cancelled, to: pending.endpoint))
            }
            updateSession { session in
                session.pendingLoad = nil
                session.probeID = nil
                session.streamID = nil
                session.phase = .idle(.cancelled)
                session.queue = nil
                session.ad = nil
                session.preloadedItemID = nil
            }
            return outputs + statusUpdate(at: context.now, requester: context)
        case .skipAd:
            guard let ad = current.ad, let whenSkippable = ad.clip.whenSkippable, ad.clipTime >= whenSkippable else {
                return invalidPlayerState(context)
            }
            return endClip(at: context.now) + statusUpdate(at: context.now, requester: context)
        case .queueNext, .queuePrev:
            return jump(by: type == .queueNext ? 1 : -1, context: context)
        default:
            return invalidRequest(.invalidCommand, context)
        }
    }

    /// Moves `offset` items from the current one.
    private mutating func jump(by offset: Int, context: RequestContext) -> [MediaPlayerOutput] {
        guard let queue = session?.queue else { return invalidPlayerState(context) }
        guard let index = queue.index(offsetBy: offset) else { return invalidRequest(.endOfQueue, context) }
        return moveToItem(at: index, startTime: nil, at: context.now, preloaded: isPreloaded(index))
            + statusUpdate(at: context.now, requester: context)
    }

    private func isPreloaded(_ index: Int) -> Bool {
        guard let preloaded = session?.preloadedItemID, let queue = session?.queue else { return false }
        return queue.items[index].itemID == preloaded
    }

    /// `SEEK`.
    mutating func seek(_ request: SeekRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, current.ad == nil, let timeline = currentTimeline else {
            return invalidPlayerState(context)
        }
        let requested: Double
        if let absolute = request.currentTime {
            requested = absolute
        } else if let relative = request.relativeTime {
            requested = current.position + relative
        } else {
            return invalidRequest(.invalidParams, context)
        }
        guard WireNumber.seconds(requested) != nil else { return invalidRequest(.invalidParams, context) }
        let target = timeline.clamp(requested, liveEdge: current.position)
        let origin = current.position
        let loading = updateSession { session -> Bool in
            session.position = target
            if target < origin { session.preloadedItemID = nil }
            switch (current.phase, request.resumeState) {
            case (.loading(let until, let autoplay), let resume):
                let play = resume.map { $0 == .playbackStart } ?? autoplay
                session.phase = .loading(until: until, autoplay: play)
            case (_, .some(.playbackStart)):
                session.phase = .playing
            case (_, .some(.playbackPause)):
                session.phase = .paused
            default:
                break
            }
            return session.isLoading
        }
        if loading == false, target > origin {
            playBreakSkipped(from: origin, includingStart: false)
        }
        return statusUpdate(at: context.now, requester: context)
    }

    /// `SET_PLAYBACK_RATE`.
    mutating func setPlaybackRate(_ request: SetPlaybackRateRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle else { return invalidPlayerState(context) }
        guard let rate = request.playbackRate ?? request.relativePlaybackRate.map({ current.rate * $0 }),
            rate.isFinite, Self.playbackRates.contains(rate)
        else {
            return invalidRequest(.invalidParams, context)
        }
        updateSession { $0.rate = rate }
        return statusUpdate(at: context.now, requester: context)
    }

    /// `SET_VOLUME` on the media namespace: the stream volume.
    mutating func setVolume(_ requested: Volume, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle else { return invalidPlayerState(context) }
        guard requested.level != nil || requested.muted != nil else { return invalidRequest(.invalidParams, context) }
        if let level = requested.level, level.isFinite { volume.level = min(max(level, 0), 1) }
        if let muted = requested.muted { volume.muted = muted }
        return statusUpdate(at: context.now, requester: context)
    }

    /// `EDIT_TRACKS_INFO`.
    mutating func editTracks(_ request: EditTracksInfoRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, let item = current.queue?.currentItem else {
            return invalidPlayerState(context)
        }
        let tracks = item.media?.tracks ?? []
        let textTrackIDs = Set(tracks.filter { $0.type == .text }.map(\.trackID))
        var active = current.activeTrackIDs ?? []
        if let requested = request.activeTrackIDs {
            guard Set(requested).isSubset(of: tracks.map(\.trackID)) else {
                return invalidRequest(.invalidParams, context)
            }
            active = requested
        }
        if let language = request.language?.lowercased() {
            let match = tracks.first { track in
                guard track.type == .text, let trackLanguage = track.language?.lowercased() else { return false }
                return trackLanguage == language || trackLanguage.hasPrefix(language + "-")
                    || language.hasPrefix(trackLanguage + "-")
            }
            guard let match else { return invalidRequest(.languageNotSupported, context) }
            active = active.filter { !textTrackIDs.contains($0) } + [match.trackID]
        }
        if request.enableTextTracks == false {
            active.removeAll { textTrackIDs.contains($0) }
        }
        let before = current.activeTrackIDs ?? []
        updateSession { session in
            if let style = request.textTrackStyle { session.textTrackStyle = style }
            session.activeTrackIDs = active
        }
        return statusUpdate(at: context.now, requester: context)
            + startTextTrackProbes(previouslyActive: before, at: context.now)
    }

    // MARK: Queue

    /// `QUEUE_INSERT`.
    mutating func queueInsert(_ request: QueueInsertRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, let queue = current.queue else {
            return invalidPlayerState(context)
        }
        guard !request.items.isEmpty, request.items.allSatisfy({ $0.media != nil && $0.hasValidWireNumbers }),
            WireNumber.isValidSeconds(request.currentTime),
            queue.items.count + request.items.count <= settings.maximumQueueItems,
            request.insertBefore.map({ queue.index(ofItem: $0) != nil }) ?? true,
            request.currentItemIndex.map({ request.items.indices.contains($0) }) ?? true,
            request.currentItemID.map({ queue.index(ofItem: $0) != nil }) ?? true
        else {
            return invalidRequest(.invalidParams, context)
        }
        var changed = queue
        let inserted = changed.insert(request.items, before: request.insertBefore)
        updateSession { $0.queue = changed }
        var outputs = [queueChange(.insert, itemIDs: inserted, insertBefore: request.insertBefore)]
        let newCurrentID = request.currentItemIndex.map { inserted[$0] } ?? request.currentItemID
        if let newCurrentID, let index = changed.index(ofItem: newCurrentID) {
            outputs += moveToItem(at: index, startTime: request.currentTime, at: context.now)
        }
        dropStalePreload()
        return outputs + statusUpdate(at: context.now, requester: context)
    }

    /// `QUEUE_REMOVE`.
    mutating func queueRemove(_ request: QueueRemoveRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, var queue = current.queue else {
            return invalidPlayerState(context)
        }
        guard WireNumber.isValidSeconds(request.currentTime) else { return invalidRequest(.invalidParams, context) }
        let result = queue.remove(request.itemIDs)
        // Nothing removed leaves the queue as it was (its sequence number too).
        guard !result.removed.isEmpty else { return invalidRequest(.invalidParams, context) }
        var outputs = [queueChange(.remove, itemIDs: result.removed, sequenceNumber: queue.sequenceNumber)]
        if queue.isEmpty {
            updateSession { session in
                session.queue = nil
                session.ad = nil
                session.phase = .idle(.finished)
            }
            return outputs + statusUpdate(at: context.now, requester: context)
        }
        updateSession { $0.queue = queue }
        let requested = request.currentItemID.flatMap { queue.index(ofItem: $0) }
        if let target = requested ?? (result.currentRemoved ? result.followingIndex : nil) {
            if requested == nil || requested != queue.currentIndex || result.currentRemoved {
                outputs += moveToItem(at: target, startTime: request.currentTime, at: context.now)
            }
        } else if result.currentRemoved {
            updateSession { session in
                session.ad = nil
                session.phase = .idle(.finished)
            }
        }
        dropStalePreload()
        return outputs + statusUpdate(at: context.now, requester: context)
    }

    /// `QUEUE_REORDER`.
    mutating func queueReorder(_ request: QueueReorderRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, var queue = current.queue else {
            return invalidPlayerState(context)
        }
        let ids = request.itemIDs
        guard !ids.isEmpty, Set(ids).count == ids.count, ids.allSatisfy({ queue.index(ofItem: $0) != nil }),
            request.insertBefore.map({ queue.index(ofItem: $0) != nil && !ids.contains($0) }) ?? true,
            request.currentItemID.map({ queue.index(ofItem: $0) != nil }) ?? true,
            WireNumber.isValidSeconds(request.currentTime)
        else {
            return invalidRequest(.invalidParams, context)
        }
        queue.reorder(ids, before: request.insertBefore)
        updateSession { $0.queue = queue }
        var outputs = [
            queueChange(
                .update,
                itemIDs: ids,
                insertBefore: request.insertBefore,
                reorderItemIDs: queue.itemIDs
            )
        ]
        if let newCurrentID = request.currentItemID, newCurrentID != queue.currentItemID,
            let index = queue.index(ofItem: newCurrentID)
        {
            outputs += moveToItem(at: index, startTime: request.currentTime, at: context.now)
        }
        dropStalePreload()
        return outputs + statusUpdate(at: context.now, requester: context)
    }

    /// `QUEUE_UPDATE`: jump, repeat mode, shuffle, item changes.
    mutating func queueUpdate(_ request: QueueUpdateRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let current = session, !current.isIdle, var queue = current.queue else {
            return invalidPlayerState(context)
        }
        if let repeatMode = request.repeatMode { queue.repeatMode = repeatMode }
        var baseIndex = queue.currentIndex
        if let itemID = request.currentItemID {
            guard let index = queue.index(ofItem: itemID) else { return invalidRequest(.invalidParams, context) }
            baseIndex = index
        }
        guard (request.items ?? []).allSatisfy(\.hasValidWireNumbers), WireNumber.isValidSeconds(request.currentTime)
        else {
            return invalidRequest(.invalidParams, context)
        }
        var targetID: Int?
        if let jump = request.jump {
            guard let target = WireNumber.offset(baseIndex, by: jump) else {
                return invalidRequest(.invalidParams, context)
            }
            if queue.items.indices.contains(target) {
                targetID = queue.items[target].itemID
            } else if queue.wraps {
                let count = queue.items.count
                targetID = queue.items[((target % count) + count) % count].itemID
            } else {
                return invalidRequest(.endOfQueue, context)
            }
        } else if request.currentItemID != nil {
            targetID = queue.items[baseIndex].itemID
        }
        var outputs: [MediaPlayerOutput] = []
        if let items = request.items {
            let changed = queue.update(items)
            if !changed.isEmpty {
                outputs.append(queueChange(.update, itemIDs: changed, sequenceNumber: queue.sequenceNumber))
            }
        }
        if request.shuffle == true, queue.items.count > 1 {
            queue.shuffle(using: &generator)
            updateSession { $0.queue = queue }
            outputs.append(queueChange(.update, itemIDs: [], reorderItemIDs: queue.itemIDs))
        } else {
            updateSession { $0.queue = queue }
        }
        let moves = targetID != nil && (request.jump != nil || targetID != queue.currentItemID)
        if moves, let targetID, let index = queue.index(ofItem: targetID) {
            outputs += moveToItem(
                at: index,
                startTime: request.currentTime,
                at: context.now,
                preloaded: isPreloaded(index)
            )
        } else if let time = request.currentTime, let timeline = currentTimeline, current.ad == nil {
            updateSession { $0.position = timeline.clamp(time, liveEdge: $0.position) }
        }
        dropStalePreload()
        return outputs + statusUpdate(at: context.now, requester: context)
    }

    /// `QUEUE_GET_ITEMS`: the items with the ids asked for, in the order asked. Items that
    /// would take the reply over a frame are left out (the sender asks for them again), and
    /// a first item too large alone has its media trimmed by the status rule.
    func queueGetItems(_ itemIDs: [Int], context: RequestContext) -> [MediaPlayerOutput] {
        let queue = session?.queue
        var items = itemIDs.prefix(Self.maximumItemsPerReply).compactMap { queue?.item(withID: $0) }
        let sequenceNumber = queue?.sequenceNumber ?? 0
        func payload() -> String {
            Self.encode(QueueItemsMessage(requestID: context.requestID, items: items, sequenceNumber: sequenceNumber))
        }
        var text = payload()
        while text.utf8.count > Self.maximumPayloadSize, items.count > 1 {
            items.removeLast()
            text = payload()
        }
        if text.utf8.count > Self.maximumPayloadSize, var first = items.first {
            first.customData = nil
            var status = MediaStatus(mediaSessionID: 0)
            status.media = first.media
            for step in Self.statusTrimmingSteps {
                guard text.utf8.count > Self.maximumPayloadSize else { break }
                step.apply(&status)
                first.media = status.media
                items = [first]
                text = payload()
            }
        }
        return [.reply(text, to: context.requester)]
    }

    /// `QUEUE_GET_ITEM_RANGE`: the ids after or before an item.
    func queueGetItemRange(_ request: QueueGetItemRangeRequest, context: RequestContext) -> [MediaPlayerOutput] {
        guard let queue = session?.queue, let index = queue.index(ofItem: request.itemID) else {
            return invalidRequest(.invalidParams, context)
        }
        let next = max(0, request.nextCount ?? 0)
        let previous = max(0, request.prevCount ?? 0)
        guard (next > 0) != (previous > 0) else { return invalidRequest(.invalidParams, context) }
        let ids = queue.itemIDs
        let range =
            next > 0
            ? Array(ids[(index + 1)...].prefix(next))
            : Array(ids[..<index].suffix(previous))
        let message = QueueItemIDsMessage(
            requestID: context.requestID,
            itemIDs: range,
            sequenceNumber: queue.sequenceNumber
        )
        return [reply(message, to: context.requester)]
    }

    /// A `QUEUE_CHANGE` notice for every sender.
    private func queueChange(
        _ changeType: QueueChangeType,
        itemIDs: [Int],
        insertBefore: Int? = nil,
        reorderItemIDs: [Int]? = nil,
        sequenceNumber: Int? = nil
    ) -> MediaPlayerOutput {
        let message = QueueChangeMessage(
            changeType: changeType,
            itemIDs: itemIDs,
            insertBefore: insertBefore,
            reorderItemIDs: reorderItemIDs,
            sequenceNumber: sequenceNumber ?? session?.queue?.sequenceNumber ?? 0
        )
        return .broadcast(Self.encode(message), excluding: nil)
    }
}
