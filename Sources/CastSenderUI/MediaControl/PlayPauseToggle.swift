/// The play/pause toggle (as `GCKUIPlayPauseToggleController`).
public struct PlayPauseToggle: Sendable, Hashable {
    /// What a tap does, and so which icon shows.
    public enum Action: Sendable, Hashable {
        /// No media: the toggle is inert.
        case none
        /// The media is paused: a tap plays (play icon).
        case play
        /// The media plays or buffers: a tap pauses (pause icon).
        case pause
    }

    /// What a tap does.
    public var action: Action
    /// Whether the toggle accepts input.
    public var inputEnabled: Bool

    /// Creates a value.
    public init(action: Action, inputEnabled: Bool) {
        self.action = action
        self.inputEnabled = inputEnabled
    }
}
