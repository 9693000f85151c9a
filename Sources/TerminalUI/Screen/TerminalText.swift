/// Text from an untrusted source made safe to print on a terminal.
public enum TerminalText {
    /// `text` with escape sequences removed (CSI `ESC [ … final`, OSC/DCS/APC/PM/SOS strings up
    /// to BEL or `ESC \`, and two-character `ESC X`; their C1 forms too) and every other C0 or
    /// C1 control (newlines and tabs included) shown as `?`, the rule the screen buffer
    /// applies to each cell. A title holding `ESC]0;…BEL`, `ESC[2J` or an OSC 52 clipboard
    /// write prints as plain text.
    ///
    /// - Parameter keepingLayout: keeps line feeds and tabs, for text whose lines and columns
    ///   the program laid out (a help text, tab-separated columns); everything else is as
    ///   above. Strings from outside are sanitized without it first, so that they cannot add
    ///   lines or columns of their own.
    public static func sanitized(_ text: String, keepingLayout: Bool = false) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                guard let next = scalars.next() else { break }
                switch next {
                case "[": skipControlSequence(&scalars)
                case "]", "P", "X", "^", "_": skipString(&scalars)
                default: break
                }
            case 0x9B: skipControlSequence(&scalars)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: skipString(&scalars)
            case 0x0A where keepingLayout, 0x09 where keepingLayout:
                result.append(scalar)
            default:
                result.append(CharacterWidth.isControl(scalar) ? "?" : scalar)
            }
        }
        return String(result)
    }

    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || CharacterWidth.isControl(scalar) { return }
        }
    }

    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if scalar.value == 0x07 || scalar.value == 0x9C { return }
            if scalar.value == 0x1B {
                _ = scalars.next()
                return
            }
        }
    }
}
