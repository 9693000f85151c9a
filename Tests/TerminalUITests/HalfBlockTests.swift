import TerminalUI
import Testing

/// Pictures drawn two pixels per cell with upper half blocks.
@Suite struct HalfBlockTests {
    @Test func eachCellShowsTheTopPixelAsForegroundAndTheBottomAsBackground() {
        var buffer = ScreenBuffer(size: Size(width: 4, height: 3))
        buffer.drawHalfBlocks(in: Rect(x: 1, y: 1, width: 2, height: 2)) { column, row in
            .rgb(UInt8(column * 100), UInt8(row * 50), 7)
        }
        #expect(buffer[0, 0].character == " ")
        #expect(buffer[1, 1].character == "▀")
        #expect(buffer[1, 1].style.foreground == .rgb(0, 0, 7))
        #expect(buffer[1, 1].style.background == .rgb(0, 50, 7))
        #expect(buffer[2, 2].style.foreground == .rgb(100, 100, 7))
        #expect(buffer[2, 2].style.background == .rgb(100, 150, 7))
        #expect(buffer[3, 2].character == " ", "nothing outside the rectangle")
    }

    @Test func leftOutPixelsTakeTheBackgroundAndDrawingIsClipped() {
        var buffer = ScreenBuffer(size: Size(width: 3, height: 2))
        buffer.drawHalfBlocks(in: Rect(x: 1, y: 0, width: 5, height: 5), background: .black) { column, row in
            row == 0 ? .red : nil
        }
        #expect(buffer[1, 0].style.foreground == .red)
        #expect(buffer[1, 0].style.background == .black)
        #expect(buffer[2, 1].style.foreground == .black)
        var empty = ScreenBuffer(size: Size(width: 2, height: 1))
        empty.drawHalfBlocks(in: Rect(x: 0, y: 0, width: 2, height: 1)) { _, _ in nil }
        #expect(empty[0, 0].character == " ", "no picture and no background: blank cells")
    }
}
