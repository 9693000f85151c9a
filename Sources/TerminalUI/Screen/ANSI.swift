/// The escape sequences the toolkit sends.
enum ANSI {
    static let escape: UInt8 = 0x1B
    static let resetStyle = "\u{1B}[0m"
    static let clearScreen = "\u{1B}[2J"
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let enterAlternateScreen = "\u{1B}[?1049h"
    static let leaveAlternateScreen = "\u{1B}[?1049l"
    static let disableLineWrap = "\u{1B}[?7l"
    static let enableLineWrap = "\u{1B}[?7h"

    /// Moves the cursor to a zero-based column and row.
    static func moveCursor(to point: Point, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [escape, UInt8(ascii: "[")])
        appendDecimal(point.y + 1, into: &bytes)
        bytes.append(UInt8(ascii: ";"))
        appendDecimal(point.x + 1, into: &bytes)
        bytes.append(UInt8(ascii: "H"))
    }

    /// Sets the graphic rendition for a style already reduced to the terminal's colours:
    /// always from a reset, so the result does not depend on the previous pen.
    static func setStyle(_ style: TextStyle, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: [escape, UInt8(ascii: "["), UInt8(ascii: "0")])
        let attributes = style.attributes
        for (attribute, code) in [
            (TextAttributes.bold, 1), (.dim, 2), (.italic, 3), (.underline, 4), (.reverse, 7),
        ] where attributes.contains(attribute) {
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(code, into: &bytes)
        }
        if let foreground = style.foreground {
            appendColor(foreground, base: 30, brightBase: 90, extended: 38, into: &bytes)
        }
        if let background = style.background {
            appendColor(background, base: 40, brightBase: 100, extended: 48, into: &bytes)
        }
        bytes.append(UInt8(ascii: "m"))
    }

    private static func appendColor(
        _ color: Color,
        base: Int,
        brightBase: Int,
        extended: Int,
        into bytes: inout [UInt8]
    ) {
        bytes.append(UInt8(ascii: ";"))
        switch color.storage {
        case .palette(let index) where index < 8:
            appendDecimal(base + Int(index), into: &bytes)
        case .palette(let index) where index < 16:
            appendDecimal(brightBase + Int(index) - 8, into: &bytes)
        case .palette(let index):
            appendDecimal(extended, into: &bytes)
            bytes.append(contentsOf: Array(";5;".utf8))
            appendDecimal(Int(index), into: &bytes)
        case .rgb(let red, let green, let blue):
            appendDecimal(extended, into: &bytes)
            bytes.append(contentsOf: Array(";2;".utf8))
            appendDecimal(Int(red), into: &bytes)
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(green), into: &bytes)
            bytes.append(UInt8(ascii: ";"))
            appendDecimal(Int(blue), into: &bytes)
        }
    }

    static func appendDecimal(_ value: Int, into bytes: inout [UInt8]) {
        if value >= 10 {
            appendDecimal(value / 10, into: &bytes)
        }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
