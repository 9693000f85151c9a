/// What a terminal can show: its colours and whether it takes UTF-8.
public struct TerminalCapabilities: Hashable, Sendable {
    /// The colours the terminal shows.
    public var colors: ColorCapability
    /// Whether the terminal decodes UTF-8, so box drawing and block characters can be used.
    /// When `false`, draw with ASCII (``BoxStyle/ascii``, ``Glyphs/ascii``).
    public var unicode: Bool

    /// Creates a capability description.
    public init(colors: ColorCapability, unicode: Bool) {
        self.colors = colors
        self.unicode = unicode
    }

    /// Detects the capabilities from the environment.
    ///
    /// Colours follow ``ColorCapability/detect(environment:)``. UTF-8 is assumed when the first
    /// of `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty names a UTF-8 character set.
    public static func detect(environment: [String: String]) -> TerminalCapabilities {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let normalized = String(locale.lowercased().filter { $0 != "-" })
        return TerminalCapabilities(
            colors: ColorCapability.detect(environment: environment),
            unicode: normalized.contains("utf8")
        )
    }
}
