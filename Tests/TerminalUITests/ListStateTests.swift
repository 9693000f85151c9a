import TerminalUI
import Testing

@Suite struct ListStateTests {
    @Test func navigationStaysInRangeAndScrolls() {
        var list = ListState(count: 10)
        #expect(list.selection == 0)
        let result1 = list.handle(KeyEvent(.up), visibleRows: 4)
        #expect(result1)
        #expect(list.selection == 0)
        for _ in 0..<5 { _ = list.handle(KeyEvent(.down), visibleRows: 4) }
        #expect(list.selection == 5)
        #expect(list.offset == 2)
        #expect(list.visibleRange(visibleRows: 4) == 2..<6)
        _ = list.handle(KeyEvent(.pageDown), visibleRows: 4)
        #expect(list.selection == 8)
        _ = list.handle(KeyEvent(.end), visibleRows: 4)
        #expect(list.selection == 9)
        #expect(list.offset == 6)
        _ = list.handle(KeyEvent(.pageUp), visibleRows: 4)
        #expect(list.selection == 6)
        #expect(list.offset == 6)
        _ = list.handle(KeyEvent(.home), visibleRows: 4)
        #expect(list.selection == 0)
        #expect(list.offset == 0)
        let result2 = list.handle(.character("x"), visibleRows: 4)
        #expect(!result2)
    }

    @Test func countChangesKeepSelectionValid() {
        var list = ListState(count: 5, selection: 4)
        list.setCount(2)
        #expect(list.selection == 1)
        list.setCount(0)
        #expect(list.selection == nil)
        let result3 = list.handle(KeyEvent(.down), visibleRows: 3)
        #expect(!result3 || list.selection == nil)
        list.setCount(3)
        #expect(list.selection == 0)
        #expect(ListState(count: 0).selection == nil)
        #expect(ListState(count: 3, selection: 99).selection == 2)
    }

    @Test func scrollingDoesNotLeaveTheWindowHalfEmpty() {
        var list = ListState(count: 10, selection: 9)
        list.scrollToSelection(visibleRows: 4)
        #expect(list.offset == 6)
        list.scrollToSelection(visibleRows: 20)
        #expect(list.offset == 0)
    }

    @Test func drawsItemsWithMarkerAndScrollMarks() {
        var buffer = ScreenBuffer(size: Size(width: 12, height: 3))
        var list = ListState(count: 0)
        let items = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon with a long name"]
        list.select(0)
        buffer.drawList(items, in: buffer.bounds, state: &list, glyphs: .ascii)
        #expect(buffer.lines == ["> Alpha", "  Beta", "  Gamma    v"])
        #expect(buffer[0, 0].style == .reverse)
        #expect(buffer[10, 0].style == .reverse)
        #expect(buffer[0, 1].style == .plain)

        list.select(4)
        buffer.clear()
        buffer.drawList(items, in: buffer.bounds, state: &list, glyphs: .unicode)
        #expect(buffer.lines == ["  Gamma    ↑", "  Delta", "› Epsilon…"])
    }
}
