/// An activity indicator: a short cycle of characters shown one after another while
/// something is in progress (searching for devices, connecting).
public struct Spinner: Hashable, Sendable {
    /// The characters of the cycle, in order.
    public let frames: [Character]

    /// Creates a spinner from its frames; an empty list gives a blank spinner.
    public init(frames: [Character]) {
        self.frames = frames.isEmpty ? [" "] : frames
    }

    /// `| / - \`: safe on any terminal.
    public static let ascii = Spinner(frames: ["|", "/", "-", "\\"])
    /// A dot turning in a braille cell.
    public static let braille = Spinner(frames: ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"])

    /// The spinner that suits the given terminal.
    public static func `for`(_ capabilities: TerminalCapabilities) -> Spinner {
        capabilities.unicode ? .braille : .ascii
    }

    /// The frame to show at step `tick` (any integer; the cycle repeats).
    public func frame(at tick: Int) -> Character {
        let count = frames.count
        return frames[((tick % count) + count) % count]
    }
}
