/// A message of the `urn:x-cast:com.google.cast.media` namespace, in either direction.
package enum MediaMessage: Sendable, Hashable {
    // MARK: Sender to receiver

    /// `LOAD`.
    case load(LoadRequest)
    /// `PLAY`, `PAUSE`, `STOP`, `SKIP_AD`, `QUEUE_NEXT`, `QUEUE_PREV` or `QUEUE_GET_ITEM_IDS`.
    case sessionCommand(MediaSessionRequest)
    /// `GET_STATUS`.
    case getStatus(GetMediaStatusRequest)
    /// `SEEK`.
    case seek(SeekRequest)
    /// `SET_PLAYBACK_RATE`.
    case setPlaybackRate(SetPlaybackRateRequest)
    /// `SET_VOLUME`.
    case setVolume(SetStreamVolumeRequest)
    /// `EDIT_TRACKS_INFO`.
    case editTracksInfo(EditTracksInfoRequest)
    /// `QUEUE_LOAD`.
    case queueLoad(QueueLoadRequest)
    /// `QUEUE_INSERT`.
    case queueInsert(QueueInsertRequest)
    /// `QUEUE_REMOVE`.
    case queueRemove(QueueRemoveRequest)
    /// `QUEUE_REORDER`.
    case queueReorder(QueueReorderRequest)
    /// `QUEUE_UPDATE`.
    case queueUpdate(QueueUpdateRequest)
    /// `QUEUE_GET_ITEMS`.
    case queueGetItems(QueueGetItemsRequest)
    /// `QUEUE_GET_ITEM_RANGE`.
    case queueGetItemRange(QueueGetItemRangeRequest)
    /// `USER_ACTION`.
    case userAction(UserActionRequest)

    // MARK: Receiver to sender

    /// `MEDIA_STATUS`.
    case mediaStatus(MediaStatusMessage)
    /// `LOAD_FAILED`.
    case loadFailed(LoadFailedMessage)
    /// `LOAD_CANCELLED`.
    case loadCancelled(LoadCancelledMessage)
    /// `INVALID_PLAYER_STATE`.
    case invalidPlayerState(InvalidPlayerStateMessage)
    /// `INVALID_REQUEST`.
    case invalidRequest(InvalidRequestMessage)
    /// `ERROR`.
    case error(MediaErrorMessage)
    /// `QUEUE_ITEM_IDS`.
    case queueItemIDs(QueueItemIDsMessage)
    /// `QUEUE_ITEMS`.
    case queueItems(QueueItemsMessage)
    /// `QUEUE_CHANGE`.
    case queueChange(QueueChangeMessage)

    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the media namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    package init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, document in
            switch peek.type {
            case .mediaStatus: .mediaStatus(try MediaStatusMessage(token: 0, in: document))
            case .load: .load(try LoadRequest(token: 0, in: document))
            case .play, .pause, .stop, .skipAd, .queueNext, .queuePrev, .queueGetItemIDs:
                .sessionCommand(try MediaSessionRequest(token: 0, in: document))
            case .getStatus: .getStatus(try GetMediaStatusRequest(token: 0, in: document))
            case .seek: .seek(try SeekRequest(token: 0, in: document))
            case .setPlaybackRate: .setPlaybackRate(try SetPlaybackRateRequest(token: 0, in: document))
            case .setVolume: .setVolume(try SetStreamVolumeRequest(token: 0, in: document))
            case .editTracksInfo: .editTracksInfo(try EditTracksInfoRequest(token: 0, in: document))
            case .queueLoad: .queueLoad(try QueueLoadRequest(token: 0, in: document))
            case .queueInsert: .queueInsert(try QueueInsertRequest(token: 0, in: document))
            case .queueRemove: .queueRemove(try QueueRemoveRequest(token: 0, in: document))
            case .queueReorder: .queueReorder(try QueueReorderRequest(token: 0, in: document))
            case .queueUpdate: .queueUpdate(try QueueUpdateRequest(token: 0, in: document))
            case .queueGetItems: .queueGetItems(try QueueGetItemsRequest(token: 0, in: document))
            case .queueGetItemRange: .queueGetItemRange(try QueueGetItemRangeRequest(token: 0, in: document))
            case .userAction: .userAction(try UserActionRequest(token: 0, in: document))
            case .loadFailed: .loadFailed(try LoadFailedMessage(token: 0, in: document))
            case .loadCancelled: .loadCancelled(try LoadCancelledMessage(token: 0, in: document))
            case .invalidPlayerState: .invalidPlayerState(try InvalidPlayerStateMessage(token: 0, in: document))
            case .invalidRequest: .invalidRequest(try InvalidRequestMessage(token: 0, in: document))
            case .error: .error(try MediaErrorMessage(token: 0, in: document))
            case .queueItemIDs: .queueItemIDs(try QueueItemIDsMessage(token: 0, in: document))
            case .queueItems: .queueItems(try QueueItemsMessage(token: 0, in: document))
            case .queueChange: .queueChange(try QueueChangeMessage(token: 0, in: document))
            default: .unknown(InboundMessageDecoding.unknown(peek, document))
            }
        }
    }

    /// The decoded message, or `nil` for an unknown type.
    package var message: (any CastJSONMessage)? {
        switch self {
        case .load(let message): message
        case .sessionCommand(let message): message
        case .getStatus(let message): message
        case .seek(let message): message
        case .setPlaybackRate(let message): message
        case .setVolume(let message): message
        case .editTracksInfo(let message): message
        case .queueLoad(let message): message
        case .queueInsert(let message): message
        case .queueRemove(let message): message
        case .queueReorder(let message): message
        case .queueUpdate(let message): message
        case .queueGetItems(let message): message
        case .queueGetItemRange(let message): message
        case .userAction(let message): message
        case .mediaStatus(let message): message
        case .loadFailed(let message): message
        case .loadCancelled(let message): message
        case .invalidPlayerState(let message): message
        case .invalidRequest(let message): message
        case .error(let message): message
        case .queueItemIDs(let message): message
        case .queueItems(let message): message
        case .queueChange(let message): message
        case .unknown: nil
        }
    }

    /// The message type.
    package var type: CastMessageType {
        if case .unknown(let message) = self { return message.type }
        return message!.type
    }

    /// The request id, when the message carries one.
    package var requestID: Int? {
        if case .unknown(let message) = self { return message.requestID }
        return message!.requestID
    }

    /// Encodes the message as compact JSON text; an unknown message is written back as received.
    package func jsonString() throws(MessageEncodingError) -> String {
        if case .unknown(let message) = self { return message.payload.description }
        return try message!.jsonString()
    }
}
