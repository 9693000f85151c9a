import TerminalUI
import Testing

@Suite struct ScreenBufferTests {
    @Test func writesAndClipsText() {
        var buffer = ScreenBuffer(size: Size(width: 6, height: 2))
        let advanced = buffer.write("hello world", at: Point(x: 1, y: 0))
        #expect(advanced == 5)
        #expect(buffer.lines == [" hello", ""])
        buffer.write("abcdef", at: Point(x: 0, y: 1), clip: Rect(x: 2, y: 1, width: 2, height: 1))
        #expect(buffer.lines[1] == "  cd")
    }

    @Test func wideCharacterTakesTwoCells() {
        var buffer = ScreenBuffer(size: Size(width: 5, height: 1))
        #expect(buffer.write("日本", at: .zero) == 4)
        #expect(buffer[0, 0].width == 2)
        #expect(buffer[1, 0].isContinuation)
        #expect(buffer[2, 0].character == "本")
        #expect(buffer.lines == ["日本"])
    }

    @Test func wideCharacterAtTheEdgeBecomesASpace() {
        var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
        #expect(buffer.write("a日本", at: .zero) == 5)
        #expect(buffer.text(row: 0) == "a日 ")
        #expect(!buffer[3, 0].isContinuation)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
        buffer.write("日本", at: .zero)
        buffer.write("x", at: Point(x: 1, y: 0))
        #expect(buffer.text(row: 0) == " x本")
        buffer.write("y", at: Point(x: 2, y: 0))
        #expect(buffer.text(row: 0) == " xy ")
        buffer.write("日", at: Point(x: 1, y: 0))
        buffer.write("本", at: Point(x: 0, y: 0))
        #expect(buffer.text(row: 0) == "本  ")
    }

    @Test func controlCharactersCannotReachTheTerminal() {
        var buffer = ScreenBuffer(size: Size(width: 12, height: 1))
        buffer.write("a\u{1B}[2Jb\tc\u{7}\u{9B}", at: .zero)
        #expect(buffer.text(row: 0) == "a?[2Jb c??  ")
    }

    @Test func combiningMarksStayWithTheirBase() {
        var buffer = ScreenBuffer(size: Size(width: 4, height: 1))
        #expect(buffer.write("e\u{301}x", at: .zero) == 2)
        #expect(buffer.lines == ["e\u{301}x"])
    }

    @Test func fillAndRestyle() {
        var buffer = ScreenBuffer(size: Size(width: 3, height: 2))
        buffer.fill(Rect(x: 1, y: 0, width: 5, height: 5), with: "#", style: .bold)
        #expect(buffer.lines == [" ##", " ##"])
        buffer.restyle(Rect(x: 0, y: 0, width: 2, height: 1)) { $0.attributes.insert(.reverse) }
        #expect(buffer[0, 0].style == .reverse)
        #expect(buffer[1, 0].style == TextStyle(attributes: [.bold, .reverse]))
        #expect(buffer[1, 1].style == .bold)
        #expect(buffer[9, 9] == .blank)
    }

    @Test func resizeBlanksEverything() {
        var buffer = ScreenBuffer(size: Size(width: 2, height: 1))
        buffer.write("ab", at: .zero)
        buffer.cursor = .zero
        buffer.resize(to: Size(width: 3, height: 2))
        #expect(buffer.lines == ["", ""])
        #expect(buffer.cursor == nil)
    }
}
