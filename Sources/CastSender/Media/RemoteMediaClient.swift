import CastSync
package import CastTime
package import Dispatch

/// Controls the media of a session's receiver app (as `GCKRemoteMediaClient`).
///
/// Every command returns a ``CastRequest`` at once; await `request.result` or give it a
/// delegate. The media status is kept current from every MEDIA_STATUS, whoever caused it.
///
/// ```swift
/// let client = session.remoteMediaClient
/// try await client.load(LoadRequestData(media: media, autoplay: true)).result
/// try await client.pause().result
/// print(client.approximateStreamPosition)
/// ```
public final class RemoteMediaClient: Sendable {
    struct Link: Sendable {
        var connection: DeviceConnection
        var senderID: String
        var transportID: String
        var appSessionID: String?
        /// Whether requests may carry secrets (the device authenticated, or the app allowed
        /// secrets for unauthenticated devices).
        var sendsSecrets: Bool
    }

    /// The top-level request members that carry the app's secrets: what is withheld from a
    /// device that did not authenticate.
    static let secretMembers: Set<String> = ["customData", "credentials", "atvCredentials"]

    private struct State {
        var tracker = MediaStatusTracker()
        var link: Link?
    }

    private let state = Locked(State())
    /// The tracker's status, for ``observeMediaStatus()``; updated under `state`'s lock.
    private let observedStatus = ObservedValue<MediaStatus?>(nil)
    private let clock: any CastClock
    private let logger: CastLogger
    let callbackQueue: DispatchQueue
    private let listeners: ListenerSet<any RemoteMediaClientListener, RemoteMediaClientEvent>
    /// The receiver's queue, fetched on demand.
    public let mediaQueue: MediaQueue

    /// Hears that a LOAD sent by this client succeeded (the context's trigger for the
    /// expanded controls).
    private let onLoaded: (@Sendable () -> Void)?

    /// Creates a client, detached until its session attaches it (`package` for the benchmark of
    /// the status path).
    package init(
        clock: any CastClock,
        logger: CastLogger,
        callbackQueue: DispatchQueue,
        onLoaded: (@Sendable () -> Void)? = nil
    ) {
        self.clock = clock
        self.logger = logger
        self.callbackQueue = callbackQueue
        self.onLoaded = onLoaded
        listeners = ListenerSet(queue: callbackQueue)
        mediaQueue = MediaQueue(callbackQueue: callbackQueue, logger: logger)
        mediaQueue.client = self
    }

    // MARK: Status

    /// Whether the client can send commands (the session is connected to the app).
    public var isConnected: Bool { state.withLock { $0.link != nil } }

    /// The latest media status, `nil` when there is no media session.
    ///
    /// Statuses merge: members a status omits keep their last values. While a load is in
    /// progress (`playerState` `IDLE` with `extendedStatus.playerState` `LOADING`) the status
    /// reads `PlayerState.loading` with the media being loaded, as GCK reports it;
    /// `extendedStatus` stays as the receiver sent it.
    public var mediaStatus: MediaStatus? { state.withLock { $0.tracker.status } }

    /// The stream position now, in seconds, extrapolated from the last status.
    public var approximateStreamPosition: Double {
        let now = clock.now
        return state.withLock { $0.tracker.approximateStreamPosition(now: now) }
    }

    /// The live seekable range now, extrapolated; `nil` when the stream is not live.
    public var approximateLiveSeekableRange: (start: Double, end: Double)? {
        let now = clock.now
        return state.withLock { $0.tracker.approximateLiveSeekableRange(now: now) }
    }

    /// Seconds since the last MEDIA_STATUS, or `nil` before the first.
    public var timeSinceLastMediaStatusUpdate: Double? {
        let now = clock.now
        return state.withLock { $0.tracker.timeSinceLastStatus(now: now) }
    }

    /// The position last known; still available after the session ends, so playback can
    /// continue locally.
    public var lastKnownStreamPosition: Double { state.withLock { $0.tracker.lastKnownStreamPosition } }

    /// The player state last known; still available after the session ends.
    public var lastKnownPlayerState: PlayerState? { state.withLock { $0.tracker.lastKnownPlayerState } }

    /// The idle reason last known.
    public var lastKnownIdleReason: IdleReason? { state.withLock { $0.tracker.lastKnownIdleReason } }

    /// Whether the current media is a live stream.
    public var isPlayingLiveStream: Bool { mediaStatus?.media?.streamType == .live }

    // MARK: Listeners

    /// Adds a listener (held weakly).
    public func add(_ listener: any RemoteMediaClientListener) { listeners.add(listener) }

    /// Removes a listener.
    public func remove(_ listener: any RemoteMediaClientListener) { listeners.remove(listener) }

    /// A stream of every later event.
    public func events() -> AsyncStream<RemoteMediaClientEvent> { listeners.stream() }

    // MARK: Loading

    /// Loads media or a queue (LOAD).
    /// - Returns: a request that fails at once with ``CastError/Code/invalidRequest`` when
    ///   `data` has neither media nor queue data.
    @discardableResult
    public func load(_ data: LoadRequestData) -> CastRequest {
        guard data.media != nil || data.queueData != nil else {
            return CastRequest.failed(
                "LOAD",
                CastError(.invalidRequest, "LOAD needs media information or queue data; both are nil"),
                callbackQueue: callbackQueue
            )
        }
        logger.log(
            .info,
            .media,
            "loading media",
            metadata: [
                "cast.content-id": data.media?.contentID ?? data.queueData?.items?.first?.media?.contentID ?? "",
                "cast.queue-items": "\(data.queueData?.items?.count ?? 0)",
            ]
        )
        let request = send("LOAD", needsMediaSession: false, replacementGroup: "load") { link, _, id in
            LoadRequest(requestID: id, sessionID: link.appSessionID, data: data)
        }
        if let onLoaded {
            // On the settling thread, before `result` returns: the expanded-controls trigger
            // is queued by the time the app learns the LOAD succeeded.
            request.whenSettled { outcome in if case .completed = outcome { onLoaded() } }
        }
        return request
    }

    /// Loads a queue of items (LOAD with `queueData`).
    @discardableResult
    public func queueLoad(_ items: [QueueItem], options: MediaQueueLoadOptions = MediaQueueLoadOptions()) -> CastRequest
    {
        guard !items.isEmpty, items.indices.contains(options.startIndex) else {
            return CastRequest.failed(
                "LOAD",
                CastError(
                    .invalidRequest,
                    "queueLoad needs items and a startIndex inside them (\(options.startIndex))"
                ),
                callbackQueue: callbackQueue
            )
        }
        let queue = QueueData(repeatMode: options.repeatMode, items: items, startIndex: options.startIndex)
        return load(
            LoadRequestData(queueData: queue, currentTime: options.playPosition, customData: options.customData)
        )
    }

    // MARK: Transport

    /// Resumes playback (PLAY).
    @discardableResult
    public func play(customData: JSONValue? = nil) -> CastRequest { sessionCommand(.play, customData) }

    /// Pauses playback (PAUSE).
    @discardableResult
    public func pause(customData: JSONValue? = nil) -> CastRequest { sessionCommand(.pause, customData) }

    /// Stops playback and removes the queue (STOP).
    @discardableResult
    public func stop(customData: JSONValue? = nil) -> CastRequest { sessionCommand(.stop, customData) }

    /// Skips the current ad (SKIP_AD).
    @discardableResult
    public func skipAd() -> CastRequest { sessionCommand(.skipAd, nil) }

    /// Seeks (SEEK); a newer seek replaces one still in flight.
    @discardableResult
    public func seek(_ options: MediaSeekOptions) -> CastRequest {
        let request = send("SEEK", replacementGroup: "seek") { link, mediaSessionID, id in
            SeekRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                currentTime: options.seekToInfinite ? 4_294_967_296 : (options.relative ? nil : options.interval),
                relativeTime: options.relative && !options.seekToInfinite ? options.interval : nil,
                resumeState: options.resumeState,
                customData: options.customData
            )
        }
        let id = request.requestID
        if id != CastRequest.invalidRequestID, request.inProgress {
            let now = clock.now
            state.withLock { state in
                let duration = state.tracker.status?.media?.duration
                let absolute = options.seekToInfinite ? duration : (options.relative ? nil : options.interval)
                state.tracker.seekStarted(
                    requestID: id,
                    absolute: absolute,
                    relative: options.relative ? options.interval : nil,
                    now: now
                )
            }
            Task { [weak self] in
                _ = await request.waitForOutcome()
                self?.state.withLock { $0.tracker.seekSettled(requestID: id) }
            }
        }
        return request
    }

    /// Sets the playback rate (SET_PLAYBACK_RATE).
    @discardableResult
    public func setPlaybackRate(_ rate: Double, customData: JSONValue? = nil) -> CastRequest {
        guard rate > 0, rate <= 16 else {
            return CastRequest.failed(
                "SET_PLAYBACK_RATE",
                CastError(.invalidRequest, "setPlaybackRate: rate \(rate) is outside (0, 16]"),
                callbackQueue: callbackQueue
            )
        }
        return send("SET_PLAYBACK_RATE", replacementGroup: "rate") { link, mediaSessionID, id in
            SetPlaybackRateRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                playbackRate: rate,
                customData: customData
            )
        }
    }

    /// Sets the stream volume, 0 to 1 (media SET_VOLUME).
    @discardableResult
    public func setStreamVolume(_ level: Double, customData: JSONValue? = nil) -> CastRequest {
        guard (0...1).contains(level) else {
            return CastRequest.failed(
                "SET_VOLUME",
                CastError(.invalidRequest, "setStreamVolume: level \(level) is outside [0, 1]"),
                callbackQueue: callbackQueue
            )
        }
        return send("SET_VOLUME", replacementGroup: "stream-volume") { link, mediaSessionID, id in
            SetStreamVolumeRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                volume: Volume(level: level),
                customData: customData
            )
        }
    }

    /// Mutes or unmutes the stream (media SET_VOLUME).
    @discardableResult
    public func setStreamMuted(_ muted: Bool, customData: JSONValue? = nil) -> CastRequest {
        send("SET_VOLUME") { link, mediaSessionID, id in
            SetStreamVolumeRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                volume: Volume(muted: muted),
                customData: customData
            )
        }
    }

    /// Sets the active tracks (EDIT_TRACKS_INFO); `nil` or empty turns every track off.
    @discardableResult
    public func setActiveTrackIDs(_ trackIDs: [Int]?) -> CastRequest {
        send("EDIT_TRACKS_INFO") { link, mediaSessionID, id in
            EditTracksInfoRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                activeTrackIDs: trackIDs ?? []
            )
        }
    }

    /// Sets the text-track style (EDIT_TRACKS_INFO).
    @discardableResult
    public func setTextTrackStyle(_ style: TextTrackStyle) -> CastRequest {
        send("EDIT_TRACKS_INFO") { link, mediaSessionID, id in
            EditTracksInfoRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                textTrackStyle: style
            )
        }
    }

    /// Asks for the media status (GET_STATUS); works without a media session.
    @discardableResult
    public func requestStatus() -> CastRequest {
        let mediaSessionID = mediaStatus?.mediaSessionID
        return send("GET_STATUS", needsMediaSession: false) { link, _, id in
            GetMediaStatusRequest(requestID: id, mediaSessionID: mediaSessionID, sessionID: link.appSessionID)
        }
    }

    // MARK: Queue

    /// Inserts items before the item with `beforeItemID` (QUEUE_INSERT);
    /// ``MediaQueueItemID/invalid`` appends them.
    @discardableResult
    public func queueInsert(
        _ items: [QueueItem],
        beforeItemID: Int = MediaQueueItemID.invalid,
        customData: JSONValue? = nil
    )
        -> CastRequest
    {
        queueInsert(items, beforeItemID: beforeItemID, play: false, playPosition: nil, customData: customData)
    }

    /// Inserts one item before `beforeItemID` (or appends it).
    @discardableResult
    public func queueInsertItem(_ item: QueueItem, beforeItemID: Int = MediaQueueItemID.invalid) -> CastRequest {
        queueInsert([item], beforeItemID: beforeItemID)
    }

    /// Inserts one item and makes it the current item.
    @discardableResult
    public func queueInsertAndPlayItem(
        _ item: QueueItem,
        beforeItemID: Int = MediaQueueItemID.invalid,
        playPosition: Double? = nil,
        customData: JSONValue? = nil
    ) -> CastRequest {
        queueInsert([item], beforeItemID: beforeItemID, play: true, playPosition: playPosition, customData: customData)
    }

    private func queueInsert(
        _ items: [QueueItem],
        beforeItemID: Int,
        play: Bool,
        playPosition: Double?,
        customData: JSONValue?
    ) -> CastRequest {
        guard !items.isEmpty else {
            return CastRequest.failed(
                "QUEUE_INSERT",
                CastError(.invalidRequest, "queueInsert needs at least one item"),
                callbackQueue: callbackQueue
            )
        }
        let stripped = items.map { item -> QueueItem in
            var item = item
            item.itemID = nil
            return item
        }
        return send("QUEUE_INSERT") { link, mediaSessionID, id in
            QueueInsertRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                items: stripped,
                insertBefore: beforeItemID == MediaQueueItemID.invalid ? nil : beforeItemID,
                currentItemIndex: play ? 0 : nil,
                currentTime: play ? playPosition : nil,
                customData: customData
            )
        }
    }

    /// Replaces items in the queue with updated copies (QUEUE_UPDATE `items`).
    @discardableResult
    public func queueUpdateItems(_ items: [QueueItem], customData: JSONValue? = nil) -> CastRequest {
        queueUpdate("QUEUE_UPDATE") {
            $0.items = items
            $0.customData = customData
        }
    }

    /// Removes items (QUEUE_REMOVE).
    @discardableResult
    public func queueRemoveItems(withIDs itemIDs: [Int], customData: JSONValue? = nil) -> CastRequest {
        send("QUEUE_REMOVE") { link, mediaSessionID, id in
            QueueRemoveRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                itemIDs: itemIDs,
                customData: customData
            )
        }
    }

    /// Moves items before `beforeItemID`, or to the end (QUEUE_REORDER).
    @discardableResult
    public func queueReorderItems(
        withIDs itemIDs: [Int],
        insertBeforeItemID beforeItemID: Int = MediaQueueItemID.invalid,
        customData: JSONValue? = nil
    ) -> CastRequest {
        send("QUEUE_REORDER") { link, mediaSessionID, id in
            QueueReorderRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                itemIDs: itemIDs,
                insertBefore: beforeItemID == MediaQueueItemID.invalid ? nil : beforeItemID,
                customData: customData
            )
        }
    }

    /// Plays the item with `itemID` (QUEUE_UPDATE `currentItemId`).
    @discardableResult
    public func queueJumpToItem(
        withID itemID: Int,
        playPosition: Double? = nil,
        customData: JSONValue? = nil
    )
        -> CastRequest
    {
        queueUpdate("QUEUE_UPDATE") {
            $0.currentItemID = itemID
            $0.currentTime = playPosition
            $0.customData = customData
        }
    }

    /// Plays the next item (QUEUE_UPDATE `jump: 1`).
    @discardableResult
    public func queueNextItem() -> CastRequest { queueUpdate("QUEUE_UPDATE") { $0.jump = 1 } }

    /// Plays the previous item (QUEUE_UPDATE `jump: -1`).
    @discardableResult
    public func queuePreviousItem() -> CastRequest { queueUpdate("QUEUE_UPDATE") { $0.jump = -1 } }

    /// Sets the repeat mode (QUEUE_UPDATE `repeatMode`).
    @discardableResult
    public func queueSetRepeatMode(_ mode: RepeatMode) -> CastRequest {
        queueUpdate("QUEUE_UPDATE") { $0.repeatMode = mode }
    }

    /// Asks for every item id (QUEUE_GET_ITEM_IDS); the reply updates ``mediaQueue``.
    @discardableResult
    public func queueFetchItemIDs() -> CastRequest {
        send("QUEUE_GET_ITEM_IDS") { link, mediaSessionID, id in
            MediaSessionRequest(
                type: .queueGetItemIDs,
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID
            )
        }
    }

    /// Asks for items by id (QUEUE_GET_ITEMS); the reply updates ``mediaQueue``.
    @discardableResult
    public func queueFetchItems(forIDs itemIDs: [Int]) -> CastRequest {
        send("QUEUE_GET_ITEMS") { link, mediaSessionID, id in
            QueueGetItemsRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                itemIDs: itemIDs
            )
        }
    }

    // MARK: Sending

    private func sessionCommand(_ type: CastMessageType, _ customData: JSONValue?) -> CastRequest {
        send(type.rawValue) { link, mediaSessionID, id in
            MediaSessionRequest(
                type: type,
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID,
                customData: customData
            )
        }
    }

    private func queueUpdate(_ name: String, _ configure: @escaping (inout QueueUpdateRequest) -> Void) -> CastRequest {
        send(name) { link, mediaSessionID, id in
            var request = QueueUpdateRequest(
                requestID: id,
                mediaSessionID: mediaSessionID,
                sessionID: link.appSessionID
            )
            configure(&request)
            return request
        }
    }

    private func send(
        _ name: String,
        needsMediaSession: Bool = true,
        replacementGroup: String? = nil,
        build: @escaping (Link, Int, Int) -> any CastJSONMessage
    ) -> CastRequest {
        let (link, mediaSessionID) = state.withLock { ($0.link, $0.tracker.status?.mediaSessionID) }
        guard let link else {
            return CastRequest.failed(
                name,
                CastError(.deviceNotConnected, "\(name): the session is not connected to the receiver app"),
                callbackQueue: callbackQueue
            )
        }
        if needsMediaSession, mediaSessionID == nil {
            return CastRequest.failed(
                name,
                CastError(.noMediaSession, "\(name): there is no media session (load media first)"),
                callbackQueue: callbackQueue
            )
        }
        if !link.sendsSecrets, let members = Self.secrets(in: build(link, mediaSessionID ?? 0, 0)) {
            logger.log(
                .error,
                .media,
                "media request with secrets withheld from an unauthenticated device",
                metadata: ["cast.request": name, "cast.members": members.joined(separator: ",")]
            )
            return CastRequest.failed(
                name,
                CastError(
                    .secretsWithheld,
                    "\(name) carries \(members.joined(separator: ", ")), which is not sent to a device that did not "
                        + "authenticate (allow it with CastOptions.sendsSecretsToUnauthenticatedDevices)"
                ),
                callbackQueue: callbackQueue
            )
        }
        let request = CastRequest(name: name, callbackQueue: callbackQueue)
        let connection = link.connection
        let logger = self.logger
        let id = connection.sendRequest(
            name: name,
            namespace: .media,
            from: link.senderID,
            to: link.transportID,
            replacementGroup: replacementGroup,
            build: { id in build(link, mediaSessionID ?? 0, id) },
            completion: { result in
                if case .failure(let error) = result, error.code != .cancelled, error.code != .replaced {
                    logger.log(
                        .warning,
                        .media,
                        "media command failed",
                        metadata: ["cast.request": name, "cast.error": error.description]
                    )
                }
                request.settle(CastRequest.Outcome(result))
            }
        )
        logger.log(
            .debug,
            .media,
            "media command sent",
            metadata: [
                "cast.request": name, "cast.request-id": "\(id)",
                "cast.media-session-id": mediaSessionID.map(String.init) ?? "none",
            ]
        )
        request.attach(requestID: id) { [weak connection] _ in connection?.cancelRequest(id) }
        return request
    }

    /// The secret members `message` carries at its top level (LOAD writes its data there), sorted;
    /// `nil` when none. A message that does not encode carries nothing sendable.
    static func secrets(in message: any CastJSONMessage) -> [String]? {
        guard let text = try? message.jsonString(), case .object(let members)? = try? JSONValue(parsing: text) else {
            return nil
        }
        let found = members.compactMap { key, value -> String? in
            guard secretMembers.contains(key) else { return nil }
            if case .null = value { return nil }
            return key
        }
        return found.isEmpty ? nil : found.sorted()
    }

    // MARK: Session side

    func attach(_ link: Link) {
        state.withLock { $0.link = link }
    }

    func detach() {
        state.withLock { $0.link = nil }
    }

    /// The session ended: forget the media session, keep the last known values.
    func sessionEnded() {
        let now = clock.now
        let hadStatus = state.withLock { state -> Bool in
            let had = state.tracker.status != nil
            state.link = nil
            state.tracker.reset(now: now)
            observedStatus.store(state.tracker.status)
            return had
        }
        mediaQueue.reset()
        if hadStatus { emit(.didUpdateMediaStatus(nil)) }
    }

    /// Takes a message of the media namespace from the session's connection.
    package func receive(_ message: MediaMessage) {
        switch message {
        case .mediaStatus(let status):
            let now = clock.now
            // Replaced only where a number was out of range: an ordinary status is not copied.
            var statuses = status.status
            for index in statuses.indices {
                let (checked, fields) = statuses[index].clampingWireNumbers()
                guard !fields.isEmpty else { continue }
                statuses[index] = checked
                logger.log(
                    .warning,
                    .media,
                    "media status numbers out of range, clamped",
                    metadata: [
                        "cast.media-session-id": "\(checked.mediaSessionID)",
                        "cast.fields": fields.joined(separator: ","),
                    ]
                )
            }
            let (changes, merged) = state.withLock { state in
                let changes = state.tracker.apply(statuses, now: now)
                // Inside the lock, so concurrent statuses reach the stream in the tracker's order.
                observedStatus.store(state.tracker.status)
                return (changes, state.tracker.status)
            }
            logger.log(
                .verbose,
                .media,
                "media status",
                metadata: [
                    "cast.media-session-id": merged.map { "\($0.mediaSessionID)" } ?? "none",
                    "cast.player-state": merged?.playerState?.rawValue ?? "none",
                ]
            )
            if changes.contains(.mediaSession), let id = merged?.mediaSessionID {
                logger.log(.info, .media, "media session started", metadata: ["cast.media-session-id": "\(id)"])
                emit(.didStartMediaSession(id))
            }
            emit(.didUpdateMediaStatus(merged))
            if changes.contains(.metadata) { emit(.didUpdateMediaMetadata(merged?.media?.metadata)) }
            if changes.contains(.queue) {
                emit(.didUpdateQueue)
                if merged == nil {
                    mediaQueue.reset()
                } else {
                    mediaQueue.queueChanged()
                }
            }
            if changes.contains(.preload) { emit(.didUpdatePreloadStatus) }
        case .queueItemIDs(let message):
            emit(.didReceiveQueueItemIDs(message.itemIDs))
            mediaQueue.receivedItemIDs(message.itemIDs)
        case .queueItems(let message):
            emit(.didReceiveQueueItems(message.items))
            mediaQueue.receivedItems(message.items)
        case .queueChange(let change):
            switch change.changeType {
            case .insert: emit(.didInsertQueueItems(change.itemIDs ?? [], beforeItemID: change.insertBefore))
            case .remove: emit(.didRemoveQueueItems(change.itemIDs ?? []))
            case .update, .itemsChange: emit(.didUpdateQueueItems(change.itemIDs ?? []))
            default: break
            }
            mediaQueue.receivedChange(change)
        default:
            break
        }
    }

    /// A stream of the media status now (`nil` when no media session is known), then every
    /// status that differs from the one before: a caller that subscribes after
    /// `load(_:).result` returned still sees the PLAYING that already arrived.
    ///
    /// ```swift
    /// for await status in client.observeMediaStatus() where status?.playerState == .playing { break }
    /// ```
    public func observeMediaStatus() -> AsyncStream<MediaStatus?> { observedStatus.stream() }

    private func emit(_ event: RemoteMediaClientEvent) {
        listeners.emit(event) { [self] listener, event in event.deliver(to: listener, from: self) }
    }
}

extension CastRequest.Outcome {
    init(_ result: Result<InboundReply, CastError>) {
        switch result {
        case .success: self = .completed
        case .failure(let error) where error.code == .replaced: self = .aborted(.replaced)
        case .failure(let error) where error.code == .cancelled: self = .aborted(.cancelled)
        case .failure(let error): self = .failed(error)
        }
    }
}
