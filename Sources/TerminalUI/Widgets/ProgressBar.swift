/// A horizontal bar showing how far something has got.
public struct ProgressBar: Hashable, Sendable {
    /// How the bar is drawn.
    public enum Style: Hashable, Sendable {
        /// `[=====>    ]`: brackets, `=` for the done part and `>` at its head.
        case ascii
        /// `████▌░░░░░`: full blocks, a partial block in eighths of a column, a shaded track.
        case blocks
    }

    /// How far along, from 0 to 1 (values outside are clamped; NaN counts as 0).
    public var fraction: Double
    /// How the bar is drawn.
    public var style: Style

    /// Creates a bar.
    public init(fraction: Double, style: Style = .ascii) {
        self.fraction = fraction
        self.style = style
    }

    /// The bar as exactly `width` columns of text (empty when `width` is not positive).
    public func render(width: Int) -> String {
        guard width > 0 else { return "" }
        let clamped = fraction.isNaN ? 0 : min(1, max(0, fraction))
        switch style {
        case .ascii:
            guard width >= 2 else { return String(repeating: clamped >= 1 ? "=" : " ", count: width) }
            let inner = width - 2
            let filled = Int((clamped * Double(inner)).rounded())
            var body: String
            if filled == 0 {
                body = ""
            } else if filled == inner {
                body = String(repeating: "=", count: inner)
            } else {
                body = String(repeating: "=", count: filled - 1) + ">"
            }
            body += String(repeating: " ", count: inner - filled)
            return "[" + body + "]"
        case .blocks:
            let eighths = Int((clamped * Double(width * 8)).rounded())
            let full = eighths / 8
            let partial = eighths % 8
            var bar = String(repeating: "█", count: full)
            if partial > 0 {
                bar.append(ProgressBar.partialBlocks[partial - 1])
            }
            return bar + String(repeating: "░", count: width - full - (partial > 0 ? 1 : 0))
        }
    }

    static let partialBlocks: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
}
