/// How to seek (as `GCKMediaSeekOptions`).
public struct MediaSeekOptions: Sendable, Hashable {
    /// The target in seconds: absolute, or relative to the current position.
    public var interval: Double
    /// Whether ``interval`` is relative (`relativeTime`) rather than absolute (`currentTime`).
    public var relative: Bool
    /// Whether playback resumes or pauses after the seek; `nil` leaves it unchanged.
    public var resumeState: ResumeState?
    /// Seek to the live edge (or the end); ``interval`` is then ignored.
    public var seekToInfinite: Bool
    /// Data for the receiver app.
    public var customData: JSONValue?

    /// Creates seek options.
    public init(
        interval: Double = 0,
        relative: Bool = false,
        resumeState: ResumeState? = nil,
        seekToInfinite: Bool = false,
        customData: JSONValue? = nil
    ) {
        self.interval = interval
        self.relative = relative
        self.resumeState = resumeState
        self.seekToInfinite = seekToInfinite
        self.customData = customData
    }
}

/// How to load a queue (as `GCKMediaQueueLoadOptions`).
public struct MediaQueueLoadOptions: Sendable, Hashable {
    /// The index of the first item to play.
    public var startIndex: Int
    /// The position in that item, in seconds; `nil` plays from its start time.
    public var playPosition: Double?
    /// The repeat mode.
    public var repeatMode: RepeatMode
    /// Data for the receiver app.
    public var customData: JSONValue?

    /// Creates queue load options.
    public init(
        startIndex: Int = 0,
        playPosition: Double? = nil,
        repeatMode: RepeatMode = .off,
        customData: JSONValue? = nil
    ) {
        self.startIndex = startIndex
        self.playPosition = playPosition
        self.repeatMode = repeatMode
        self.customData = customData
    }
}

/// Queue item ids with a special meaning.
public enum MediaQueueItemID {
    /// No item (as `kGCKMediaQueueInvalidItemID`): inserting before it appends.
    public static let invalid = 0
}
