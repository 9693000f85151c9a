/// The `type` of a JSON Cast message, e.g. `LAUNCH` or `MEDIA_STATUS`.
///
/// Replies sometimes carry the same strings in `responseType` instead of `type`.
///
/// An open set: values this version does not know are kept as they are.
public struct CastMessageType: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// Opens a virtual connection (`tp.connection`).
    public static let connect: CastMessageType = "CONNECT"
    /// Closes a virtual connection (`tp.connection`).
    public static let close: CastMessageType = "CLOSE"
    /// Confirms a virtual connection with a protocol version (`tp.connection`).
    public static let connected: CastMessageType = "CONNECTED"
    /// Heartbeat request (`tp.heartbeat`).
    public static let ping: CastMessageType = "PING"
    /// Heartbeat reply (`tp.heartbeat`).
    public static let pong: CastMessageType = "PONG"
    /// Asks for the receiver status or, on the media namespace, the media status.
    public static let getStatus: CastMessageType = "GET_STATUS"
    /// Launches a receiver application.
    public static let launch: CastMessageType = "LAUNCH"
    /// Stops a receiver application or, on the media namespace, playback.
    public static let stop: CastMessageType = "STOP"
    /// Sets the device volume or, on the media namespace, the stream volume.
    public static let setVolume: CastMessageType = "SET_VOLUME"
    /// Asks whether applications are available; also the `responseType` of its reply.
    public static let getAppAvailability: CastMessageType = "GET_APP_AVAILABILITY"
    /// The receiver status.
    public static let receiverStatus: CastMessageType = "RECEIVER_STATUS"
    /// A failed launch.
    public static let launchError: CastMessageType = "LAUNCH_ERROR"
    /// Progress of a launch awaiting user approval.
    public static let launchStatus: CastMessageType = "LAUNCH_STATUS"
    /// A rejected request (receiver and media namespaces).
    public static let invalidRequest: CastMessageType = "INVALID_REQUEST"
    /// Loads media.
    public static let load: CastMessageType = "LOAD"
    /// Resumes playback.
    public static let play: CastMessageType = "PLAY"
    /// Pauses playback.
    public static let pause: CastMessageType = "PAUSE"
    /// Seeks.
    public static let seek: CastMessageType = "SEEK"
    /// Changes the playback rate.
    public static let setPlaybackRate: CastMessageType = "SET_PLAYBACK_RATE"
    /// Changes the active tracks or the text-track style.
    public static let editTracksInfo: CastMessageType = "EDIT_TRACKS_INFO"
    /// Loads a queue (legacy; LOAD with `queueData` replaces it).
    public static let queueLoad: CastMessageType = "QUEUE_LOAD"
    /// Inserts queue items.
    public static let queueInsert: CastMessageType = "QUEUE_INSERT"
    /// Removes queue items.
    public static let queueRemove: CastMessageType = "QUEUE_REMOVE"
    /// Reorders queue items.
    public static let queueReorder: CastMessageType = "QUEUE_REORDER"
    /// Jumps in, updates or changes the repeat mode of the queue.
    public static let queueUpdate: CastMessageType = "QUEUE_UPDATE"
    /// Plays the next queue item.
    public static let queueNext: CastMessageType = "QUEUE_NEXT"
    /// Plays the previous queue item.
    public static let queuePrev: CastMessageType = "QUEUE_PREV"
    /// Asks for the ids of all queue items.
    public static let queueGetItemIDs: CastMessageType = "QUEUE_GET_ITEM_IDS"
    /// Asks for queue items by id.
    public static let queueGetItems: CastMessageType = "QUEUE_GET_ITEMS"
    /// Asks for the ids of queue items around an item.
    public static let queueGetItemRange: CastMessageType = "QUEUE_GET_ITEM_RANGE"
    /// Skips the current ad.
    public static let skipAd: CastMessageType = "SKIP_AD"
    /// Reports a user action such as LIKE.
    public static let userAction: CastMessageType = "USER_ACTION"
    /// The media status.
    public static let mediaStatus: CastMessageType = "MEDIA_STATUS"
    /// The members of a speaker group (multizone namespace).
    public static let multizoneStatus: CastMessageType = "MULTIZONE_STATUS"
    /// Asks a speaker for the groups it belongs to (multizone namespace).
    public static let getCastingGroups: CastMessageType = "GET_CASTING_GROUPS"
    /// The groups a speaker belongs to (multizone namespace).
    public static let castingGroups: CastMessageType = "CASTING_GROUPS"
    /// Sets the volume of one member of a speaker group (multizone namespace).
    public static let setDeviceVolume: CastMessageType = "SET_DEVICE_VOLUME"
    /// A member joined a speaker group (multizone namespace).
    public static let deviceAdded: CastMessageType = "DEVICE_ADDED"
    /// A member of a speaker group changed, for example its volume (multizone namespace).
    public static let deviceUpdated: CastMessageType = "DEVICE_UPDATED"
    /// A member left a speaker group (multizone namespace).
    public static let deviceRemoved: CastMessageType = "DEVICE_REMOVED"
    /// A speaker group's playback session started, changed or ended (multizone namespace).
    public static let playbackSessionUpdated: CastMessageType = "PLAYBACK_SESSION_UPDATED"
    /// A failed LOAD.
    public static let loadFailed: CastMessageType = "LOAD_FAILED"
    /// A LOAD superseded by another request.
    public static let loadCancelled: CastMessageType = "LOAD_CANCELLED"
    /// A request not valid in the player's state.
    public static let invalidPlayerState: CastMessageType = "INVALID_PLAYER_STATE"
    /// A media error.
    public static let error: CastMessageType = "ERROR"
    /// The ids of the queue items.
    public static let queueItemIDs: CastMessageType = "QUEUE_ITEM_IDS"
    /// Queue items.
    public static let queueItems: CastMessageType = "QUEUE_ITEMS"
    /// A change of the queue.
    public static let queueChange: CastMessageType = "QUEUE_CHANGE"
}

extension CastMessageType: TokenDecodable, TokenEncodable {}
