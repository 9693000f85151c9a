import TerminalUI
import Testing

@Suite struct TextLayoutTests {
    @Test(arguments: [
        ("", 0), ("abc", 3), ("日本語", 6), ("é", 1), ("e\u{301}", 1), ("🎬", 2), ("❤\u{FE0F}", 2), ("한국", 4),
        ("ｆｕｌｌ", 8), ("a\u{200B}b", 2), ("🇫🇷", 2),
    ])
    func measuresColumns(text: String, width: Int) {
        #expect(TextLayout.width(of: text) == width)
    }

    @Test(arguments: [
        ("Hello, world", 20, "Hello, world"),
        ("Hello, world", 12, "Hello, world"),
        ("Hello, world", 11, "Hello, wor…"),
        ("Hello, world", 7, "Hello,…"),
        ("Hello world", 7, "Hello…"),
        ("Hello", 1, "H"),
        ("Hello", 0, ""),
        ("日本語テキスト", 7, "日本語…"),
        ("日本語テキスト", 6, "日本…"),
    ])
    func truncatesWithEllipsis(text: String, width: Int, expected: String) {
        let result = TextLayout.truncate(text, toWidth: width)
        #expect(result == expected)
        #expect(TextLayout.width(of: result) <= width)
    }

    @Test func truncatesWithAsciiEllipsis() {
        #expect(TextLayout.truncate("Big Buck Bunny", toWidth: 8, ellipsis: "...") == "Big B...")
        #expect(TextLayout.truncate("Big Buck Bunny", toWidth: 3, ellipsis: "...") == "Big")
    }

    @Test func pads() {
        #expect(TextLayout.pad("ab", toWidth: 5) == "ab   ")
        #expect(TextLayout.pad("ab", toWidth: 5, alignment: .trailing) == "   ab")
        #expect(TextLayout.pad("ab", toWidth: 5, alignment: .center) == " ab  ")
        #expect(TextLayout.pad("日本", toWidth: 5, alignment: .center) == "日本 ")
        #expect(TextLayout.pad("abcdef", toWidth: 4) == "abc…")
    }

    @Test func wrapsAtSpaces() {
        #expect(
            TextLayout.wrap("The quick brown fox jumps over the lazy dog", width: 10)
                == ["The quick", "brown fox", "jumps over", "the lazy", "dog"]
        )
    }

    @Test func wrapsLongWordsAndKeepsLineBreaks() {
        #expect(TextLayout.wrap("abcdefghij klm", width: 4) == ["abcd", "efgh", "ij", "klm"])
        #expect(TextLayout.wrap("one\n\ntwo  three", width: 20) == ["one", "", "two three"])
        #expect(TextLayout.wrap("日本語のテキスト", width: 5) == ["日本", "語の", "テキ", "スト"])
        #expect(TextLayout.wrap("", width: 5) == [""])
        #expect(TextLayout.wrap("abc", width: 0) == [])
    }

    @Test func wrapsToAMaximumNumberOfLines() {
        let lines = TextLayout.wrap("The quick brown fox jumps over the lazy dog", width: 10, maxLines: 2)
        #expect(lines == ["The quick", "brown fox…"])
        #expect(TextLayout.wrap("short", width: 10, maxLines: 2) == ["short"])
        #expect(TextLayout.wrap("a b c", width: 1, maxLines: 0) == [])
    }
}
