public import CastCore

/// The queue controls of the media controller (GCK's `nextButton`, `previousButton` and
/// `repeatModeButton`): whether there is an item to skip to, and the repeat mode.
public struct QueueNavigationState: Sendable, Hashable {
    /// Whether "next" can be used now.
    public var canSkipToNext: Bool
    /// Whether "previous" can be used now.
    public var canSkipToPrevious: Bool
    /// The queue's repeat mode; `nil` without a media session.
    public var repeatMode: RepeatMode?
    /// Whether the repeat mode can be changed now (the receiver supports repeating this queue).
    public var canChangeRepeatMode: Bool

    /// Creates a value.
    public init(canSkipToNext: Bool, canSkipToPrevious: Bool, repeatMode: RepeatMode?, canChangeRepeatMode: Bool) {
        self.canSkipToNext = canSkipToNext
        self.canSkipToPrevious = canSkipToPrevious
        self.repeatMode = repeatMode
        self.canChangeRepeatMode = canChangeRepeatMode
    }

    /// The mode after `mode` in the repeat button's cycle: off → all → single → off
    /// (all-and-shuffle, which only an app sets, goes back to off).
    public static func next(after mode: RepeatMode?) -> RepeatMode {
        switch mode {
        case .off?, nil: .all
        case .all?: .single
        default: .off
        }
    }

    /// A short label for a repeat mode: "off", "all", "one" or "shuffle".
    public static func label(for mode: RepeatMode?) -> String {
        switch mode {
        case .all?: "all"
        case .single?: "one"
        case .allAndShuffle?: "shuffle"
        default: "off"
        }
    }
}
