/// The app's own player, which plays nothing but keeps a simulated playback clock: position,
/// play, pause, seek and the end of the media.
///
/// A value type driven by the caller's instants (of any clock), so it is tested without
/// waiting: the position at an instant is the position when the clock was last anchored plus
/// the time played since.
struct LocalPlayer<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    /// What the player is doing.
    enum State: Hashable, Sendable, CustomStringConvertible {
        /// Nothing loaded, or stopped (as when the media went to the Cast device).
        case stopped
        case playing
        case paused
        /// Played to the end.
        case ended

        var description: String {
            switch self {
            case .stopped: "Stopped"
            case .playing: "Playing"
            case .paused: "Paused"
            case .ended: "Ended"
            }
        }
    }

    private(set) var state = State.stopped
    /// The duration of the loaded media, in seconds (0 when unknown).
    private(set) var duration: Double = 0
    private var anchorPosition: Double = 0
    private var anchorInstant: Instant?

    init() {}

    /// The position in seconds at `now`, never past the duration.
    func position(at now: Instant) -> Double {
        guard state == .playing, let anchorInstant else { return anchorPosition }
        let elapsed = anchorInstant.duration(to: now) / .seconds(1)
        let position = anchorPosition + max(0, elapsed)
        return duration > 0 ? min(position, duration) : position
    }

    /// Whether the player is playing or paused (the codelab's "not stopped").
    var isActive: Bool { state == .playing || state == .paused }

    /// Loads media of `duration` seconds at `position`, playing or paused.
    mutating func load(duration: Double, position: Double, playing: Bool, at now: Instant) {
        self.duration = max(0, duration)
        anchorPosition = clamp(position)
        anchorInstant = now
        state = playing ? .playing : .paused
        if playing, self.duration > 0, anchorPosition >= self.duration { state = .ended }
    }

    /// Plays from the current position; from the start when the media had ended or was stopped.
    mutating func play(at now: Instant) {
        switch state {
        case .playing:
            return
        case .ended, .stopped:
            anchorPosition = 0
        case .paused:
            break
        }
        anchorInstant = now
        state = .playing
    }

    /// Pauses at the current position.
    mutating func pause(at now: Instant) {
        guard state == .playing else { return }
        anchorPosition = position(at: now)
        anchorInstant = now
        state = .paused
    }

    /// Toggles between playing and paused.
    mutating func togglePlayPause(at now: Instant) {
        if state == .playing { pause(at: now) } else { play(at: now) }
    }

    /// Moves to `position` (clamped to the media), keeping the state.
    mutating func seek(to position: Double, at now: Instant) {
        anchorPosition = clamp(position)
        anchorInstant = now
        if state == .ended { state = .paused }
    }

    /// Moves by `offset` seconds from the position at `now`.
    mutating func seek(by offset: Double, at now: Instant) {
        seek(to: position(at: now) + offset, at: now)
    }

    /// Stops, keeping the position (the media went elsewhere).
    mutating func stop(at now: Instant) {
        anchorPosition = position(at: now)
        anchorInstant = now
        state = .stopped
    }

    /// Marks the end of the media when the clock has passed it. Returns whether it just ended.
    @discardableResult
    mutating func update(at now: Instant) -> Bool {
        guard state == .playing, duration > 0, position(at: now) >= duration else { return false }
        anchorPosition = duration
        anchorInstant = now
        state = .ended
        return true
    }

    private func clamp(_ position: Double) -> Double {
        let lower = position.isFinite ? max(0, position) : 0
        return duration > 0 ? min(lower, duration) : lower
    }
}
