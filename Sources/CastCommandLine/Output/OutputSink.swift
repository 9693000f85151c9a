package import CastCore
import Foundation
import TerminalUI

/// Where a command writes: standard output for results, standard error for errors and
/// progress, with colour only on a terminal and never when `NO_COLOR` is set.
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
            out: { FileHandle.standardOutput.write(Data($0.utf8)) },
            err: { FileHandle.standardError.write(Data($0.utf8)) }
        )
    }

    /// Writes a line to standard output.
    package func line(_ text: String) { writeOut(text + "\n") }

    /// Writes a line to standard error.
    package func error(_ text: String) { writeErr(text + "\n") }

    /// Writes raw text to standard error (a progress line ending in `\r`).
    package func progress(_ text: String) { writeErr(text) }

    /// Writes a JSON value to standard output on one line, keys sorted.
    package func json(_ value: JSONValue) {
        line(Self.encode(value))
    }

    /// A JSON value as one line of text, keys sorted.
    ///
    /// Control characters in strings are escaped, so no escape sequence reaches a terminal
    /// through `--json` output either.
    package static func encode(_ value: JSONValue) -> String {
        value.description
    }

    /// `text` in bold when colour is on.
    package func bold(_ text: String) -> String { usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

    /// `text` in red when colour is on.
    package func red(_ text: String) -> String { usesColor ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
}
