import Testing

@testable import TerminalUI

/// Device-supplied text printed on a terminal: no escape sequence or control reaches it.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("Living Room", "Living Room"),
        ("\u{1B}]0;pwned\u{07}TV", "TV"),
        ("\u{1B}[2JTV", "TV"),
        ("a\u{1B}]52;c;ZXZpbA==\u{1B}\\b", "ab"),
        ("a\u{9B}31mb", "ab"),
        ("a\u{9D}0;x\u{9C}b", "ab"),
        ("line\nnext\ttab\r", "line?next?tab?"),
        ("\u{1B}", ""),
        ("\u{1B}[", ""),
        ("Télé 客厅 🎬", "Télé 客厅 🎬"),
    ])
    func escapeSequencesAndControlsAreRemoved(input: String, expected: String) {
        #expect(TerminalText.sanitized(input) == expected)
    }

    @Test func theResultNeverHoldsAControl() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let scalars = (0..<Int.random(in: 0..<24, using: &generator)).map { _ in
                Unicode.Scalar(UInt8.random(in: 0...0xFF, using: &generator))
            }
            let text = String(String.UnicodeScalarView(scalars))
            let clean = TerminalText.sanitized(text)
            #expect(!clean.unicodeScalars.contains { CharacterWidth.isControl($0) }, "\(scalars)")
        }
    }
}
