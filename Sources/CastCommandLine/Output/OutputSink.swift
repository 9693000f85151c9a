package import CastCore
import Glibc
import TerminalUI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a command writes: standard output for results, standard error for errors and
/// progress, with colour only on a terminal and never when `NO_COLOR` is set.
///
/// This is the command line's one way to the terminal, and every text goes through the
/// sanitizer on it (``TerminalText/sanitized(_:keepingLayout:)``): escape sequences are
/// removed and every other control character (C0, DEL, C1) is shown as `?`, whatever the
/// text holds and wherever it came from (a device's name or status, a file name, a catalog,
/// an argument). Results keep the line feeds and tabs the command laid out; errors and
/// progress lines are one line. The sink's own styling (bold, red, redrawing a progress
/// line) is added after the sanitizer, so it is the only escape sequence written.
package struct OutputSink: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// Whether standard error is a terminal (progress lines redraw in place).
    package let errorIsTerminal: Bool
    /// Whether colour escapes may be written.
    package let usesColor: Bool

    /// Creates a sink over two writers.
    package init(
        errorIsTerminal: Bool,
        usesColor: Bool,
        out: @escaping @Sendable (String) -> Void,
        err: @escaping @Sendable (String) -> Void
    ) {
        self.errorIsTerminal = errorIsTerminal
        self.usesColor = usesColor
        writeOut = out
        writeErr = err
    }

    /// The process's standard output and error.
    package static func standard(environment: [String: String]) -> OutputSink {
        let terminal = isatty(STDERR_FILENO) == 1
        let color = terminal && ColorCapability.detect(environment: environment) != .none
        return OutputSink(
            errorIsTerminal: terminal,
            usesColor: color,
            out: { writeAll($0, to: STDOUT_FILENO) },
            err: { writeAll($0, to: STDERR_FILENO) }
        )
    }

    /// Writes all of `text` to `descriptor`, continuing after a short or interrupted write;
    /// gives up on any other error (a closed pipe: nobody reads what follows).
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                written += count
            }
        }
    }

    /// Writes a line to standard output (line feeds and tabs in it kept).
    package func line(_ text: String) { writeOut(TerminalText.sanitized(text, keepingLayout: true) + "\n") }

    /// Writes a line with styled parts to standard output.
    package func line(_ line: TerminalLine) { writeOut(render(line, keepingLayout: true) + "\n") }

    /// Writes a line to standard error: one line, whatever `text` holds.
    package func error(_ text: String) { writeErr(TerminalText.sanitized(text) + "\n") }

    /// Writes a line with styled parts to standard error.
    package func error(_ line: TerminalLine) { writeErr(render(line, keepingLayout: false) + "\n") }

    /// Redraws the progress line on standard error (a terminal only: the line is erased and
    /// written again in place).
    package func progressLine(_ text: String) {
        guard errorIsTerminal else { return }
        writeErr("\r\u{1B}[K" + TerminalText.sanitized(text))
    }

    /// Ends the progress line, so that what follows starts on a line of its own.
    package func endProgress() {
        guard errorIsTerminal else { return }
        writeErr("\n")
    }

    /// Writes a JSON value to standard output on one line, keys sorted.
    package func json(_ value: JSONValue) {
        line(Self.encode(value))
    }

    /// A JSON value as one line of text, keys sorted.
    ///
    /// Control characters in strings are escaped, C1 controls (U+0080–U+009F) and DEL
    /// included, so no escape sequence reaches a terminal through `--json` output either,
    /// and the text is the value exactly.
    package static func encode(_ value: JSONValue) -> String {
        var result = String.UnicodeScalarView()
        for scalar in value.description.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                // Only inside strings: JSON's own syntax is ASCII.
                result.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `line` as written: each part sanitized, then styled when colour is on.
    private func render(_ line: TerminalLine, keepingLayout: Bool) -> String {
        line.parts.map { part in
            let text = TerminalText.sanitized(part.text, keepingLayout: keepingLayout)
            guard usesColor else { return text }
            switch part.style {
            case .plain: return text
            case .bold: return "\u{1B}[1m\(text)\u{1B}[0m"
            case .red: return "\u{1B}[31m\(text)\u{1B}[0m"
            }
        }.joined()
    }
}

/// A line of output whose parts may be styled; the sink sanitizes each part, then styles it.
package struct TerminalLine: Sendable, ExpressibleByStringInterpolation {
    /// How a part is shown on a terminal with colour.
    package enum Style: Sendable {
        case plain
        case bold
        case red
    }

    /// One part of the line.
    package struct Part: Sendable {
        package var text: String
        package var style: Style
    }

    /// The parts, in order.
    package var parts: [Part]

    /// A line of plain text.
    package init(_ text: String) { parts = [Part(text: text, style: .plain)] }

    package init(stringLiteral value: String) { self.init(value) }

    package init(stringInterpolation: DefaultStringInterpolation) {
        self.init(String(stringInterpolation: stringInterpolation))
    }

    /// A line of one styled part.
    package static func styled(_ text: String, _ style: Style) -> TerminalLine {
        var line = TerminalLine("")
        line.parts = [Part(text: text, style: style)]
        return line
    }

    /// The line followed by `other`.
    package static func + (line: TerminalLine, other: TerminalLine) -> TerminalLine {
        var joined = line
        joined.parts += other.parts
        return joined
    }

    /// The line's text without styles.
    package var plainText: String { parts.map(\.text).joined() }
}
