public import CastCore

/// What a virtual device keeps of its running receiver app when its host process stops, so
/// that a device hosted inside an app (castvideos' built-in device) is found as it was at the
/// app's next launch, as a real device would be: the same app session (ids included) and the
/// media it played, at the position it had reached.
///
/// Made by ``VirtualDevice/snapshot()`` and given back to ``VirtualDevice/restore(_:)``; it
/// is `Codable` so the host can keep it in a file.
public struct VirtualDeviceSnapshot: Codable, Sendable, Hashable {
    /// The running app's id.
    public var appID: String
    /// Its receiver session id.
    public var sessionID: String
    /// Its transport id.
    public var transportID: String
    /// The queue, when media was loaded.
    public var items: [QueueItem]?
    /// The index of the current item in ``items``.
    public var currentIndex: Int?
    /// The position in the current item, in seconds.
    public var position: Double?
    /// Whether it was playing (else paused).
    public var isPlaying: Bool?
    /// The queue's repeat mode.
    public var repeatMode: RepeatMode?
    /// The active tracks.
    public var activeTrackIDs: [Int]?
    /// The playback rate.
    public var playbackRate: Double?
    /// The device volume.
    public var deviceVolume: Volume?

    /// Creates a snapshot.
    public init(appID: String, sessionID: String, transportID: String) {
        self.appID = appID
        self.sessionID = sessionID
        self.transportID = transportID
    }

    /// The members by their names on the wire.
    private enum CodingKeys: String, CodingKey {
        case appID = "appId"
        case sessionID = "sessionId"
        case transportID = "transportId"
        case items, currentIndex, position, isPlaying, repeatMode
        case activeTrackIDs = "activeTrackIds"
        case playbackRate, deviceVolume
    }
}
