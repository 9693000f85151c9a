/// Text attributes a cell can carry besides its colours.
///
/// Attributes are emitted even when colour is off (see ``ColorCapability/none``), so reverse
/// video or bold can mark the focused item on any terminal.
public struct TextAttributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bold or increased intensity (SGR 1).
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Faint or decreased intensity (SGR 2).
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Italic (SGR 3).
    public static let italic = TextAttributes(rawValue: 1 << 2)
    /// Underline (SGR 4).
    public static let underline = TextAttributes(rawValue: 1 << 3)
    /// Reverse video: foreground and background swapped (SGR 7).
    public static let reverse = TextAttributes(rawValue: 1 << 4)
}
