import TerminalUI
import Testing

@Suite struct LayoutSizeTests {
    @Test func fixedAndFlexibleRows() {
        let screen = Rect(x: 0, y: 0, width: 80, height: 24)
        let rows = screen.stackVertically([.fixed(1), .flexible, .fixed(2)])
        #expect(
            rows == [
                Rect(x: 0, y: 0, width: 80, height: 1),
                Rect(x: 0, y: 1, width: 80, height: 21),
                Rect(x: 0, y: 22, width: 80, height: 2),
            ]
        )
    }

    @Test func weightsShareTheRestAndLeftoverGoesFirst() {
        let area = Rect(x: 5, y: 2, width: 10, height: 3)
        let columns = area.stackHorizontally([.flexible(weight: 1), .flexible(weight: 2)])
        #expect(columns.map(\.width) == [4, 6])
        #expect(columns.map(\.x) == [5, 9])
        let three = area.stackHorizontally([.flexible, .flexible, .flexible])
        #expect(three.map(\.width) == [4, 3, 3])
        #expect(three.map(\.x) == [5, 9, 12])
        #expect(three.allSatisfy { $0.y == 2 && $0.height == 3 })
    }

    @Test func spacingIsTakenBeforeSharing() {
        let columns = Rect(x: 0, y: 0, width: 21, height: 1).stackHorizontally([.flexible, .flexible], spacing: 1)
        #expect(columns == [Rect(x: 0, y: 0, width: 10, height: 1), Rect(x: 11, y: 0, width: 10, height: 1)])
    }

    @Test func tooSmallStacksGiveFixedPartsWhatIsLeftInOrder() {
        let rows = Rect(x: 0, y: 0, width: 10, height: 3).stackVertically([.fixed(2), .flexible, .fixed(2)])
        #expect(rows.map(\.height) == [2, 0, 1])
        #expect(rows.map(\.y) == [0, 2, 2])
        let none = Rect(x: 0, y: 0, width: 10, height: 0).stackVertically([.fixed(2), .flexible])
        #expect(none.map(\.height) == [0, 0])
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).stackVertically([]).isEmpty)
    }

    @Test func rectangleHelpers() {
        let rect = Rect(x: 2, y: 3, width: 10, height: 6)
        #expect(rect.inset(by: 1) == Rect(x: 3, y: 4, width: 8, height: 4))
        #expect(rect.inset(by: 5).isEmpty)
        #expect(rect.centered(Size(width: 4, height: 3)) == Rect(x: 5, y: 4, width: 4, height: 3))
        #expect(rect.centered(Size(width: 40, height: 3)).width == 10)
        #expect(rect.intersection(Rect(x: 0, y: 0, width: 4, height: 4)) == Rect(x: 2, y: 3, width: 2, height: 1))
        #expect(rect.intersection(Rect(x: 50, y: 50, width: 4, height: 4)).isEmpty)
        #expect(rect.contains(Point(x: 11, y: 8)))
        #expect(!rect.contains(Point(x: 12, y: 8)))
        #expect(rect.row(1) == Rect(x: 2, y: 4, width: 10, height: 1))
        #expect(rect.row(6).isEmpty)
    }
}
