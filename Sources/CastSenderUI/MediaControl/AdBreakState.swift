/// An ad break in progress, with the skip countdown ("Skip ad in 3…" → "Skip ad").
public struct AdBreakState: Sendable, Hashable {
    /// Whether and when the playing clip can be skipped.
    public enum Skip: Sendable, Hashable {
        /// The clip cannot be skipped.
        case notSkippable
        /// The clip can be skipped after this many more whole seconds.
        case countdown(seconds: Int)
        /// The clip can be skipped now.
        case available
    }

    /// The playing break.
    public var breakID: String?
    /// The playing clip.
    public var clipID: String?
    /// The clip's title.
    public var clipTitle: String?
    /// Seconds played of the clip, extrapolated at the last tick.
    public var clipTime: Double
    /// The clip's duration, if known.
    public var clipDuration: Double?
    /// The skip state.
    public var skip: Skip

    /// Creates a value.
    public init(
        breakID: String?,
        clipID: String?,
        clipTitle: String?,
        clipTime: Double,
        clipDuration: Double?,
        skip: Skip
    ) {
        self.breakID = breakID
        self.clipID = clipID
        self.clipTitle = clipTitle
        self.clipTime = clipTime
        self.clipDuration = clipDuration
        self.skip = skip
    }

    /// Whether the skip button accepts input.
    public var canSkip: Bool { skip == .available }

    /// The label of the skip control: "Skip ad in N…", "Skip ad", or "Ad" when it cannot be skipped.
    public var skipLabel: String {
        switch skip {
        case .notSkippable: "Ad"
        case .countdown(let seconds): "Skip ad in \(seconds)…"
        case .available: "Skip ad"
        }
    }

    /// Seconds left in the clip, if its duration is known.
    public var clipRemaining: Double? { clipDuration.map { max(0, $0 - clipTime) } }
}
