/// The number of terminal columns a character takes: 0, 1 or 2.
///
/// East Asian wide and fullwidth characters and emoji shown as emoji take two columns;
/// combining marks and format characters that stand alone take none; everything else one.
/// Control characters count as one column because the screen buffer shows them as `?`.
enum CharacterWidth {
    static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue, ascii < 0x80 {
            return 1
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isControl(first) {
            return 1
        }
        let properties = first.properties
        if properties.isEmojiPresentation {
            return 2
        }
        if properties.isEmoji, scalars.contains("\u{FE0F}") {
            return 2
        }
        if isWide(first.value) {
            return 2
        }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        default:
            return 1
        }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges that are not emoji.
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi radicals, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, enclosed CJK
        0x3400...0x4DBF,  // CJK unified ideographs extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols
        0x17000...0x18CFF,  // Tangut, Khitan
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B and later
        0x30000...0x3FFFD,  // CJK extension G and later
    ]

    static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
