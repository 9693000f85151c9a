import CastCore
import CastTime

/// The simulated media player of a receiver app (the Default Media Receiver and any app
/// with the media namespace): media sessions, the queue, ad breaks and a playback clock.
///
/// Like the engine, it is a value-type state machine: ``handle(_:from:at:failNextLoad:)``
/// for requests, ``advance(to:)`` for time. The caller advances it to the current instant
/// before every request.
struct MediaPlayer: Sendable {
    /// Whether the player holds a media session.
    enum State: Sendable {
        /// No `LOAD` yet: every request that names a media session is refused.
        case noSession
        /// The media session of the last `LOAD`, also after it went idle.
        case active(MediaSession)
    }

    var settings: MediaPlayerSettings
    /// The media session, if any; requests and timeline events change it only through
    /// ``updateSession(_:)``, which does nothing without one.
    private(set) var state = State.noSession
    /// The stream volume; it outlives media sessions.
    var volume = Volume(level: 1, muted: false)
    var nextMediaSessionID = 1
    /// When the next unsolicited status is due, while a session plays and
    /// ``MediaPlayerSettings/statusInterval`` is set.
    var nextPeriodicStatus: DeviceInstant?
    var generator: IdentifierGenerator

    /// Status requests are answered with at most this many queue items.
    static let maximumItemsPerReply = 20
    /// Bounds the number of timeline events handled in one call, as a guard against a
    /// timeline that would not move forward.
    static let maximumEventsPerAdvance = 10_000

    init(settings: MediaPlayerSettings, seed: UInt64) {
        self.settings = settings
        self.generator = IdentifierGenerator(seed: seed)
    }

    /// The current media session, also after it went idle; `nil` before the first `LOAD`.
    var session: MediaSession? {
        guard case .active(let session) = state else { return nil }
        return session
    }

    /// Changes the current media session in place and returns what `body` returns; `nil`,
    /// with nothing changed, when there is none.
    @discardableResult
    mutating func updateSession<Result>(_ body: (inout MediaSession) -> Result) -> Result? {
        guard case .active(var session) = state else { return nil }
        // Leaves the session uniquely referenced while `body` changes it (no copy of its queue).
        state = .noSession
        defer { state = .active(session) }
        return body(&session)
    }

    /// Replaces the media session (a `LOAD`).
    mutating func start(_ session: MediaSession) {
        state = .active(session)
    }

    // MARK: Requests

    /// Handles a request of the media namespace from `requester`.
    mutating func handle(
        _ payload: String,
        from requester: SenderEndpoint,
        at now: DeviceInstant,
        failNextLoad: inout Bool
    ) -> [MediaPlayerOutput] {
        let message: MediaMessage
        do {
            message = try MediaMessage(jsonString: payload)
        } catch {
            return malformedRequest(payload, error: error, from: requester)
        }
        let requestID = message.requestID ?? 0
        if let pending = session?.pendingLoad, pending.endpoint == requester, pending.requestID == requestID,
            requestID != 0
        {
            return [reply(InvalidRequestMessage(requestID: requestID, reason: .duplicateRequestID), to: requester)]
        }
        let context = RequestContext(requester: requester, requestID: requestID, now: now)
        switch message {
        case .load(let request):
            defer { failNextLoad = false }
            return load(request.data, context: context, forceFailure: failNextLoad)
        case .queueLoad(let request):
            let data = LoadRequestData(
                queueData: QueueData(
                    repeatMode: request.repeatMode,
                    items: request.items,
                    startIndex: request.startIndex,
                    startTime: request.currentTime
                ),
                customData: request.customData
            )
            defer { failNextLoad = false }
            return load(data, context: context, forceFailure: failNextLoad)
        case .getStatus:
            return statusReply(to: context)
        case .sessionCommand(let request):
            return withSession(request.mediaSessionID, context) { player in
                player.sessionCommand(request.type, context: context)
            }
        case .seek(let request):
            return withSession(request.mediaSessionID, context) { $0.seek(request, context: context) }
        case .setPlaybackRate(let request):
            return withSession(request.mediaSessionID, context) { $0.setPlaybackRate(request, context: context) }
        case .setVolume(let request):
            return withSession(request.mediaSessionID, context) { $0.setVolume(request.volume, context: context) }
        case .editTracksInfo(let request):
            return withSession(request.mediaSessionID, context) { $0.editTracks(request, context: context) }
        case .queueInsert(let request):
            return withSession(request.mediaSessionID, context) { $0.queueInsert(request, context: context) }
        case .queueRemove(let request):
            return withSession(request.mediaSessionID, context) { $0.queueRemove(request, context: context) }
        case .queueReorder(let request):
            return withSession(request.mediaSessionID, context) { $0.queueReorder(request, context: context) }
        case .queueUpdate(let request):
            return withSession(request.mediaSessionID, context) { $0.queueUpdate(request, context: context) }
        case .queueGetItems(let request):
            return withSession(request.mediaSessionID, context) { $0.queueGetItems(request.itemIDs, context: context) }
        case .queueGetItemRange(let request):
            return withSession(request.mediaSessionID, context) { $0.queueGetItemRange(request, context: context) }
        case .userAction(let request):
            return withSession(request.mediaSessionID, context) { player in
                player.invalidRequest(.notSupported, context)
            }
        default:
            return [
                reply(InvalidRequestMessage(requestID: requestID, reason: .invalidCommand), to: requester),
                .log(
                    DeviceLogEntry(
                        level: .warning,
                        message: "unsupported media request",
                        metadata: ["cast.type": message.type.rawValue, "cast.source-id": requester.senderID]
                    )
                ),
            ]
        }
    }

    /// The request being handled.
    struct RequestContext {
        var requester: SenderEndpoint
        var requestID: Int
        var now: DeviceInstant
    }

    /// Checks the media session id, brings the session up to date and runs `body`.
    private mutating func withSession(
        _ mediaSessionID: Int,
        _ context: RequestContext,
        _ body: (inout MediaPlayer) -> [MediaPlayerOutput]
    ) -> [MediaPlayerOutput] {
        guard case .active(let session) = state, session.id == mediaSessionID else {
            return [
                reply(
                    InvalidRequestMessage(requestID: context.requestID, reason: .invalidMediaSessionID),
                    to: context.requester
                )
            ]
        }
        updateSession { $0.rebase(to: context.now) }
        return body(&self)
    }

    /// Answers a payload that does not decode as a media request.
    private func malformedRequest(
        _ payload: String,
        error: MessageDecodingError,
        from requester: SenderEndpoint
    ) -> [MediaPlayerOutput] {
        let log = MediaPlayerOutput.log(
            DeviceLogEntry(
                level: .warning,
                message: "malformed media request",
                metadata: ["cast.source-id": requester.senderID, "cast.reason": "\(error)"]
            )
        )
        guard let value = try? JSONValue(parsing: payload), value.objectValue != nil else { return [log] }
        let requestID = value["requestId"]?.intValue ?? 0
        let reason: ErrorReason
        if let type = value["type"]?.stringValue.map(CastMessageType.init(rawValue:)) {
            let needsSession: Set<CastMessageType> = [
                .play, .pause, .stop, .seek, .setPlaybackRate, .setVolume, .editTracksInfo, .queueInsert,
                .queueRemove, .queueReorder, .queueUpdate, .queueNext, .queuePrev, .queueGetItemIDs,
                .queueGetItems, .queueGetItemRange, .skipAd, .userAction,
            ]
            if needsSession.contains(type), value["mediaSessionId"]?.intValue == nil {
                reason = .invalidMediaSessionID
            } else {
                reason = .invalidParams
            }
        } else {
            reason = .invalidCommand
        }
        return [reply(InvalidRequestMessage(requestID: requestID, reason: reason), to: requester), log]
    }

    // MARK: Output helpers

    func reply(_ message: some CastJSONMessage, to endpoint: SenderEndpoint) -> MediaPlayerOutput {
        .reply(Self.encode(message), to: endpoint)
    }

    static func encode(_ message: some CastJSONMessage) -> String {
        // The player builds only finite numbers, the one thing the encoder can refuse.
        (try? message.jsonString()) ?? "{\"type\":\"\(message.type.rawValue)\"}"
    }

    /// The status list of `MEDIA_STATUS`: empty without a session.
    func statusList(at now: DeviceInstant) -> [MediaStatus] {
        status(at: now).map { [$0] } ?? []
    }

    /// The current status sent as a reply to `requester` (when given) and as a broadcast to
    /// every other sender.
    func statusUpdate(at now: DeviceInstant, requester: RequestContext?) -> [MediaPlayerOutput] {
        // Room for the longest request id written in place of 0.
        let (text, trimmed) = fittedStatusMessage(requestID: 0, reserve: 20, at: now)
        let payload = StatusPayload(encoded: text, type: .mediaStatus)
        var outputs: [MediaPlayerOutput] = Self.trimmingLog(trimmed).map { [$0] } ?? []
        if let requester {
            outputs.append(.reply(payload.reply(requestID: requester.requestID), to: requester.requester))
        }
        outputs.append(.broadcast(payload.broadcast, excluding: requester?.requester))
        return outputs
    }

    /// The current status as the answer to one request (a `GET_STATUS`, a `PLAY` of media
    /// already playing), trimmed to a frame like every status.
    func statusReply(to context: RequestContext) -> [MediaPlayerOutput] {
        let (text, trimmed) = fittedStatusMessage(requestID: context.requestID, at: context.now)
        return [.reply(text, to: context.requester)] + (Self.trimmingLog(trimmed).map { [$0] } ?? [])
    }

    func invalidPlayerState(_ context: RequestContext) -> [MediaPlayerOutput] {
        [reply(InvalidPlayerStateMessage(requestID: context.requestID), to: context.requester)]
    }

    func invalidRequest(_ reason: ErrorReason, _ context: RequestContext) -> [MediaPlayerOutput] {
        [reply(InvalidRequestMessage(requestID: context.requestID, reason: reason), to: context.requester)]
    }

    // MARK: Session life cycle

    mutating func makeSessionID() -> Int {
        defer { nextMediaSessionID += 1 }
        return nextMediaSessionID
    }
}
