/// The stream volume of the media (MEDIA_STATUS `volume`), which the media controller's
/// mute binding changes where the media allows it.
public struct StreamVolumeState: Sendable, Hashable {
    /// The level, 0 to 1.
    public var level: Double
    /// Whether the stream is muted.
    public var isMuted: Bool
    /// Whether the level can be changed (`supportedMediaCommands` has stream volume).
    public var canChangeLevel: Bool
    /// Whether the mute can be changed (`supportedMediaCommands` has stream mute).
    public var canMute: Bool

    /// Creates a value.
    public init(level: Double, isMuted: Bool, canChangeLevel: Bool, canMute: Bool) {
        self.level = level
        self.isMuted = isMuted
        self.canChangeLevel = canChangeLevel
        self.canMute = canMute
    }
}
