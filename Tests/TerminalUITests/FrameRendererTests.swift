import Testing

@testable import TerminalUI

@Suite struct FrameRendererTests {
    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    @Test func firstFrameClearsAndDrawsOnlyNonBlankCells() {
        var renderer = FrameRenderer(colors: .trueColor)
        var frame = ScreenBuffer(size: Size(width: 4, height: 2))
        frame.write("ab", at: Point(x: 0, y: 0))
        frame.write("c", at: Point(x: 3, y: 1))
        #expect(text(renderer.render(frame)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab\u{1B}[2;4Hc\u{1B}[?25l")
    }

    @Test func unchangedFrameEmitsNothing() {
        var renderer = FrameRenderer(colors: .trueColor)
        var frame = ScreenBuffer(size: Size(width: 4, height: 2))
        frame.write("ab", at: .zero)
        _ = renderer.render(frame)
        #expect(renderer.render(frame).isEmpty)
    }

    @Test func changedCellsOnlyWithCursorMovesAndStyle() {
        var renderer = FrameRenderer(colors: .trueColor)
        var first = ScreenBuffer(size: Size(width: 6, height: 3))
        first.write("hello", at: .zero)
        _ = renderer.render(first)

        var second = first
        second.write("J", at: Point(x: 0, y: 0))
        second.write("Y", at: Point(x: 4, y: 0))
        second.write("X", at: Point(x: 2, y: 2), style: TextStyle(foreground: .red, attributes: .bold))
        second.write("Z", at: Point(x: 3, y: 2))
        #expect(
            text(renderer.render(second))
                == "\u{1B}[1;1HJellY\u{1B}[3;3H\u{1B}[0;1;31mX\u{1B}[0mZ"
        )
    }

    @Test func shortGapsAreRewrittenLongGapsAreJumped() {
        var renderer = FrameRenderer(colors: .trueColor)
        var first = ScreenBuffer(size: Size(width: 12, height: 1))
        first.write("abcdefghijkl", at: .zero)
        _ = renderer.render(first)
        var second = first
        second.write("A", at: .zero)
        second.write("F", at: Point(x: 5, y: 0))
        second.write("L", at: Point(x: 11, y: 0))
        #expect(text(renderer.render(second)) == "\u{1B}[1;1HAbcdeF\u{1B}[1;12HL")
        var third = second
        third.write("b", at: Point(x: 1, y: 0), style: .bold)
        third.write("E", at: Point(x: 4, y: 0))
        #expect(text(renderer.render(third)) == "\u{1B}[1;2H\u{1B}[0;1mb\u{1B}[1;5H\u{1B}[0mE")
    }

    @Test func adjacentChangesShareOneCursorMove() {
        var renderer = FrameRenderer(colors: .trueColor)
        let blank = ScreenBuffer(size: Size(width: 5, height: 1))
        _ = renderer.render(blank)
        var next = blank
        next.write("abc", at: Point(x: 1, y: 0))
        #expect(text(renderer.render(next)) == "\u{1B}[1;2Habc")
    }

    @Test func writingTheLastColumnForgetsTheCursor() {
        var renderer = FrameRenderer(colors: .trueColor)
        _ = renderer.render(ScreenBuffer(size: Size(width: 3, height: 2)))
        var next = ScreenBuffer(size: Size(width: 3, height: 2))
        next.write("z", at: Point(x: 2, y: 0))
        next.write("w", at: Point(x: 0, y: 1))
        #expect(text(renderer.render(next)) == "\u{1B}[1;3Hz\u{1B}[2;1Hw")
    }

    @Test func resizeAndInvalidateRedrawInFull() {
        var renderer = FrameRenderer(colors: .trueColor)
        var frame = ScreenBuffer(size: Size(width: 3, height: 1))
        frame.write("ab", at: .zero)
        _ = renderer.render(frame)
        renderer.invalidate()
        #expect(text(renderer.render(frame)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab\u{1B}[?25l")

        var larger = ScreenBuffer(size: Size(width: 4, height: 1))
        larger.write("ab", at: .zero)
        #expect(text(renderer.render(larger)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1Hab")
    }

    @Test func wideCharactersTakeTwoColumnsAndAreRedrawnWhole() {
        var renderer = FrameRenderer(colors: .trueColor)
        var wide = ScreenBuffer(size: Size(width: 4, height: 1))
        wide.write("日x", at: .zero)
        #expect(text(renderer.render(wide)) == "\u{1B}[0m\u{1B}[2J\u{1B}[1;1H日x\u{1B}[?25l")

        var narrow = wide
        narrow.write("ab", at: .zero)
        #expect(text(renderer.render(narrow)) == "\u{1B}[1;1Hab")

        #expect(text(renderer.render(wide)) == "\u{1B}[1;1H日")
    }

    @Test func cursorIsShownWhereTheFrameAsks() {
        var renderer = FrameRenderer(colors: .trueColor)
        var frame = ScreenBuffer(size: Size(width: 4, height: 2))
        frame.cursor = Point(x: 1, y: 1)
        #expect(text(renderer.render(frame)) == "\u{1B}[0m\u{1B}[2J\u{1B}[2;2H\u{1B}[?25h")
        frame.cursor = nil
        #expect(text(renderer.render(frame)) == "\u{1B}[?25l")
    }

    @Test(arguments: [
        (ColorCapability.trueColor, "\u{1B}[0;38;2;255;0;0;48;2;0;0;128mX"),
        (.palette256, "\u{1B}[0;38;5;196;48;5;18mX"),
        (.basic16, "\u{1B}[0;91;44mX"),
        (.none, "X"),
    ])
    func colorsAreReducedToTheCapability(capability: ColorCapability, expected: String) {
        var renderer = FrameRenderer(colors: capability)
        _ = renderer.render(ScreenBuffer(size: Size(width: 2, height: 1)))
        var frame = ScreenBuffer(size: Size(width: 2, height: 1))
        frame.write("X", at: .zero, style: TextStyle(foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 128)))
        #expect(text(renderer.render(frame)) == "\u{1B}[1;1H" + expected)
    }

    @Test func withoutColorAttributesRemain() {
        var renderer = FrameRenderer(
            colors: ColorCapability.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        )
        _ = renderer.render(ScreenBuffer(size: Size(width: 2, height: 1)))
        var frame = ScreenBuffer(size: Size(width: 2, height: 1))
        frame.write(
            "S",
            at: .zero,
            style: TextStyle(foreground: .green, background: .black, attributes: [.reverse, .bold])
        )
        let output = text(renderer.render(frame))
        #expect(output == "\u{1B}[1;1H\u{1B}[0;1;7mS")
        #expect(!output.contains("3"))
    }

    @Test func colourChangeTheTerminalCannotShowEmitsNothing() {
        var renderer = FrameRenderer(colors: .none)
        var frame = ScreenBuffer(size: Size(width: 2, height: 1))
        frame.write("A", at: .zero, style: TextStyle(foreground: .red))
        _ = renderer.render(frame)
        frame.write("A", at: .zero, style: TextStyle(foreground: .blue))
        #expect(renderer.render(frame).isEmpty)
    }
}
