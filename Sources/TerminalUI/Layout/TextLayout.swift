/// Measuring, cutting, padding and wrapping text by terminal columns.
///
/// Widths count columns, not characters: East Asian wide characters and emoji take two.
public enum TextLayout {
    /// How text is placed in a wider space.
    public enum Alignment: Hashable, Sendable {
        /// Against the left edge.
        case leading
        /// In the middle (an odd leftover column goes to the right).
        case center
        /// Against the right edge.
        case trailing
    }

    /// The number of columns the text takes.
    public static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += CharacterWidth.of(character)
        }
        return total
    }

    /// The text cut to at most `width` columns, ending with `ellipsis` when it was cut.
    ///
    /// A wide character that would cross the limit is left out. When even the ellipsis does
    /// not fit, the text is cut without one.
    public static func truncate(_ text: some StringProtocol, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width {
            return String(text)
        }
        let ellipsisWidth = self.width(of: ellipsis)
        guard ellipsisWidth < width else {
            return prefix(text, width: width)
        }
        var cut = prefix(text, width: width - ellipsisWidth)
        while cut.last == " " { cut.removeLast() }
        return cut + ellipsis
    }

    /// The longest start of the text that fits in `width` columns.
    public static func prefix(_ text: some StringProtocol, width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = CharacterWidth.of(character)
            if used + characterWidth > width { break }
            result.append(character)
            used += characterWidth
        }
        return result
    }

    /// The text cut (with an ellipsis) or padded with spaces to exactly `width` columns.
    public static func pad(
        _ text: some StringProtocol,
        toWidth width: Int,
        alignment: Alignment = .leading,
        ellipsis: String = "…"
    ) -> String {
        let cut = truncate(text, toWidth: width, ellipsis: ellipsis)
        let free = max(0, width - self.width(of: cut))
        switch alignment {
        case .leading:
            return cut + String(repeating: " ", count: free)
        case .trailing:
            return String(repeating: " ", count: free) + cut
        case .center:
            let left = free / 2
            return String(repeating: " ", count: left) + cut + String(repeating: " ", count: free - left)
        }
    }

    /// The text broken into lines of at most `width` columns.
    ///
    /// Lines break at spaces; a word longer than a line is split. Line breaks in the text
    /// start a new line; runs of spaces collapse. With `maxLines`, text beyond the last line
    /// is dropped and the last line ends with `ellipsis`.
    public static func wrap(
        _ text: some StringProtocol,
        width: Int,
        maxLines: Int? = nil,
        ellipsis: String = "…"
    ) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in String(text).split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(contentsOf: wrapParagraph(paragraph, width: width))
        }
        if let maxLines, lines.count > maxLines {
            lines.removeSubrange(max(0, maxLines)...)
            if let last = lines.popLast() {
                let room = width - self.width(of: ellipsis)
                lines.append(
                    room > 0 ? truncate(last, toWidth: room, ellipsis: "") + ellipsis : prefix(last, width: width)
                )
            }
        }
        return lines
    }

    private static func wrapParagraph(_ paragraph: Substring, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in paragraph.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
            var word = Substring(word)
            var wordWidth = self.width(of: word)
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            while wordWidth > width {
                var piece = prefix(word, width: width)
                if piece.isEmpty {
                    piece = String(word.prefix(1))
                }
                lines.append(piece)
                word = word.dropFirst(piece.count)
                wordWidth = self.width(of: word)
            }
            line = String(word)
            lineWidth = wordWidth
        }
        if lineWidth > 0 || lines.isEmpty {
            lines.append(line)
        }
        return lines
    }
}
