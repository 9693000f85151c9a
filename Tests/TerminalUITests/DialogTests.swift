import TerminalUI
import Testing

@Suite struct DialogTests {
    @Test func keysMoveBetweenButtonsAndChoose() {
        var dialog = Dialog(
            title: "Stop casting?",
            message: "Stop casting to Living Room TV?",
            buttons: ["Stop", "Cancel"]
        )
        let result1 = dialog.handle(KeyEvent(.right))
        #expect(result1 == nil)
        #expect(dialog.selectedButton == 1)
        let result2 = dialog.handle(KeyEvent(.right))
        #expect(result2 == nil)
        #expect(dialog.selectedButton == 1)
        let result3 = dialog.handle(KeyEvent(.tab))
        #expect(result3 == nil)
        #expect(dialog.selectedButton == 0)
        let result4 = dialog.handle(KeyEvent(.tab, modifiers: .shift))
        #expect(result4 == nil)
        #expect(dialog.selectedButton == 1)
        let result5 = dialog.handle(KeyEvent(.left))
        #expect(result5 == nil)
        let result6 = dialog.handle(KeyEvent(.enter))
        #expect(result6 == .chose(0))
        let result7 = dialog.handle(KeyEvent(.escape))
        #expect(result7 == .cancelled)
        let result8 = dialog.handle(.character("z"))
        #expect(result8 == nil)
    }

    @Test func isCentredAndDrawn() {
        var buffer = ScreenBuffer(size: Size(width: 40, height: 10))
        buffer.fill(buffer.bounds, with: ".")
        let dialog = Dialog(title: "Alert", message: "Failed to start a session", buttons: ["OK"])
        let frame = dialog.draw(into: &buffer, in: buffer.bounds, glyphs: .ascii)
        #expect(frame == Rect(x: 5, y: 2, width: 29, height: 5))
        #expect(
            Array(buffer.lines[2...6]) == [
                ".....+- Alert -------------------+......",
                ".....| Failed to start a session |......",
                ".....|                           |......",
                ".....|          [ OK ]           |......",
                ".....+---------------------------+......",
            ]
        )
        #expect(buffer[16, 5].style == .reverse)
        #expect(buffer[15, 5].style == .plain)
        #expect(buffer.lines[1] == String(repeating: ".", count: 40))
    }

    @Test func longMessagesWrapWithinTheScreen() {
        let dialog = Dialog(
            title: "No Cast devices found",
            message: String(repeating: "Make sure the device is on the same network. ", count: 4),
            buttons: []
        )
        let frame = dialog.frame(in: Rect(x: 0, y: 0, width: 40, height: 24))
        #expect(frame.width == 36)
        #expect(frame.x == 2)
        #expect(frame.height == TextLayout.wrap(dialog.message, width: 32).count + 2)
        var tiny = ScreenBuffer(size: Size(width: 10, height: 3))
        let small = dialog.draw(into: &tiny, in: tiny.bounds)
        #expect(small.width <= 10 && small.height <= 3)
    }
}
