/// A message of the `urn:x-cast:com.google.cast.media` namespace, in either direction.
public enum MediaMessage: Sendable, Hashable {
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
    case queueItemIds(QueueItemIdsMessage)
    /// `QUEUE_ITEMS`.
    case queueItems(QueueItemsMessage)
    /// `QUEUE_CHANGE`.
    case queueChange(QueueChangeMessage)

    /// Any other type, kept whole.
    case unknown(UnknownMessage)

    /// Decodes a payload of the media namespace.
    ///
    /// - Throws: ``MessageDecodingError``; an unknown `type` is not an error.
    public init(jsonString payload: String) throws(MessageDecodingError) {
        self = try InboundMessageDecoding.decode(payload) { peek, decoder in
            switch peek.type {
            case .mediaStatus: .mediaStatus(try MediaStatusMessage(from: decoder))
            case .load: .load(try LoadRequest(from: decoder))
            case .play, .pause, .stop, .skipAd, .queueNext, .queuePrev, .queueGetItemIds:
                .sessionCommand(try MediaSessionRequest(from: decoder))
            case .getStatus: .getStatus(try GetMediaStatusRequest(from: decoder))
            case .seek: .seek(try SeekRequest(from: decoder))
            case .setPlaybackRate: .setPlaybackRate(try SetPlaybackRateRequest(from: decoder))
            case .setVolume: .setVolume(try SetStreamVolumeRequest(from: decoder))
            case .editTracksInfo: .editTracksInfo(try EditTracksInfoRequest(from: decoder))
            case .queueLoad: .queueLoad(try QueueLoadRequest(from: decoder))
            case .queueInsert: .queueInsert(try QueueInsertRequest(from: decoder))
            case .queueRemove: .queueRemove(try QueueRemoveRequest(from: decoder))
            case .queueReorder: .queueReorder(try QueueReorderRequest(from: decoder))
            case .queueUpdate: .queueUpdate(try QueueUpdateRequest(from: decoder))
            case .queueGetItems: .queueGetItems(try QueueGetItemsRequest(from: decoder))
            case .queueGetItemRange: .queueGetItemRange(try QueueGetItemRangeRequest(from: decoder))
            case .userAction: .userAction(try UserActionRequest(from: decoder))
            case .loadFailed: .loadFailed(try LoadFailedMessage(from: decoder))
            case .loadCancelled: .loadCancelled(try LoadCancelledMessage(from: decoder))
            case .invalidPlayerState: .invalidPlayerState(try InvalidPlayerStateMessage(from: decoder))
            case .invalidRequest: .invalidRequest(try InvalidRequestMessage(from: decoder))
            case .error: .error(try MediaErrorMessage(from: decoder))
            case .queueItemIds: .queueItemIds(try QueueItemIdsMessage(from: decoder))
            case .queueItems: .queueItems(try QueueItemsMessage(from: decoder))
            case .queueChange: .queueChange(try QueueChangeMessage(from: decoder))
            default: .unknown(InboundMessageDecoding.unknown(peek, decoder))
            }
        }
    }

    /// The decoded message, or `nil` for an unknown type.
    public var message: (any CastJSONMessage)? {
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
        case .queueItemIds(let message): message
        case .queueItems(let message): message
        case .queueChange(let message): message
        case .unknown: nil
        }
    }

    /// The message type.
    public var type: CastMessageType {
        if case .unknown(let message) = self { return message.type }
        return message!.type
    }

    /// The request id, when the message carries one.
    public var requestId: Int? {
        if case .unknown(let message) = self { return message.requestId }
        return message!.requestId
    }
}
