/// How many colours a terminal can show.
public enum ColorCapability: Int, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// No colour at all: only attributes such as bold and reverse are emitted.
    case none = 0
    /// The 16 basic colours (SGR 30–37, 90–97 and their backgrounds).
    case basic16 = 1
    /// The 256-colour palette (SGR 38;5;n).
    case palette256 = 2
    /// 24-bit colour (SGR 38;2;r;g;b).
    case trueColor = 3

    public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Detects the capability from the environment.
    ///
    /// `NO_COLOR` set to any non-empty value turns colour off whatever else is set. Otherwise
    /// `COLORTERM=truecolor` or `24bit` means 24-bit colour; then `TERM` decides: unset, empty
    /// or `dumb` means none, a name containing `direct` 24-bit, `256color` the 256-colour
    /// palette, and any other terminal the 16 basic colours.
    public static func detect(environment: [String: String]) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            return .none
        }
        let term = (environment["TERM"] ?? "").lowercased()
        if term.isEmpty || term == "dumb" {
            return .none
        }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.contains("direct") {
            return .trueColor
        }
        if term.contains("256color") {
            return .palette256
        }
        return .basic16
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .basic16: "16 colours"
        case .palette256: "256 colours"
        case .trueColor: "24-bit colour"
        }
    }
}
