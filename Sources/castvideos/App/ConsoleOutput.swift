import Foundation
import TerminalUI

/// What castvideos writes outside its screen (usage, errors before and after the app runs):
/// every text goes through the terminal sanitizer, so a file name, a catalog's text or an
/// error carrying either cannot send an escape sequence to the terminal. The screen itself is
/// drawn from cells the screen buffer sanitizes.
enum ConsoleOutput {
    /// Writes `text` and a line feed to standard output (its own line feeds kept).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalText.sanitized(text, keepingLayout: true) + "\n").utf8))
    }

    /// Writes `castvideos: TEXT` to standard error as one line.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("castvideos: " + TerminalText.sanitized(text) + "\n").utf8))
    }
}
