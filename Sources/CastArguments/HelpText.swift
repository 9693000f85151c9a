/// The help of a program, laid out the same way by every program of the package:
///
/// ```text
/// program — what it does.
///
/// USAGE: program [options] ARGUMENTS
///
/// A paragraph.
///
/// OPTIONS:
///   -d, --device NAME   One line each, aligned.
///
/// SECTION:
///   free text, indented
/// ```
package struct HelpText: Sendable {
    /// A titled block after the options (`ENVIRONMENT`, `EXAMPLES`, `CONFIG FILE`, …).
    package struct Section: Sendable {
        /// The title, in capitals.
        package var title: String
        /// The lines, shown indented by two spaces.
        package var lines: [String]

        /// Creates a section.
        package init(_ title: String, _ lines: [String]) {
            self.title = title
            self.lines = lines
        }
    }

    /// The program's name (or `program command`).
    package var program: String
    /// One line saying what it does.
    package var summary: String
    /// The usage line after the program's name.
    package var usage: String
    /// A paragraph or more of detail, if any.
    package var discussion: [String]
    /// The options, in the order shown.
    package var options: [OptionSpec]
    /// Titled blocks after the options.
    package var sections: [Section]

    /// Creates a help text.
    package init(
        program: String,
        summary: String,
        usage: String = "[options]",
        discussion: [String] = [],
        options: [OptionSpec],
        sections: [Section] = []
    ) {
        self.program = program
        self.summary = summary
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.sections = sections
    }

    /// The text, ending with a newline.
    package var text: String {
        var lines = ["\(program) — \(summary)", "", "USAGE: \(program)\(usage.isEmpty ? "" : " " + usage)"]
        if !discussion.isEmpty { lines += [""] + discussion }
        if !options.isEmpty {
            lines += ["", "OPTIONS:"]
            lines += Self.columns(options.map { ($0.display, $0.help) })
        }
        for section in sections {
            lines += ["", "\(section.title):"]
            lines += section.lines.map { $0.isEmpty ? "" : "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Two columns, the first padded to its widest entry; a help text with line breaks
    /// continues under the second column.
    package static func columns(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.flatMap { left, right in
            let pad = String(repeating: " ", count: width - left.count)
            let parts = right.split(separator: "\n", omittingEmptySubsequences: false)
            let indent = String(repeating: " ", count: width + 4)
            return ["  \(left)\(pad)  \(parts.first ?? "")"] + parts.dropFirst().map { indent + $0 }
        }
    }
}
