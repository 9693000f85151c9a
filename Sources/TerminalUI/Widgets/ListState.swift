/// The selection and scroll position of a list: a value type the screen keeps and the
/// keyboard changes.
///
/// The selection is `nil` only while the list is empty. The scroll offset (the first row
/// shown) is adjusted by ``scrollToSelection(visibleRows:)``, which drawing calls, so the
/// selected row is always on screen.
public struct ListState: Hashable, Sendable {
    /// The number of items.
    public private(set) var count: Int
    /// The index of the selected item, or `nil` when the list is empty.
    public private(set) var selection: Int?
    /// The index of the first item shown.
    public private(set) var offset: Int = 0

    /// Creates a state for `count` items with the first one selected.
    public init(count: Int = 0, selection: Int = 0) {
        self.count = max(0, count)
        self.selection = count > 0 ? min(max(0, selection), count - 1) : nil
    }

    /// Changes the number of items, keeping the selection in range.
    public mutating func setCount(_ newCount: Int) {
        count = max(0, newCount)
        if count == 0 {
            selection = nil
            offset = 0
        } else {
            selection = min(selection ?? 0, count - 1)
            offset = min(offset, count - 1)
        }
    }

    /// Selects an item (clamped to the list).
    public mutating func select(_ index: Int) {
        guard count > 0 else { return }
        selection = min(max(0, index), count - 1)
    }

    /// Moves the selection by `delta` items, stopping at either end.
    public mutating func moveSelection(by delta: Int) {
        guard let selection else { return }
        select(selection + delta)
    }

    /// Applies the navigation keys: up and down, Page Up and Page Down (by `visibleRows - 1`),
    /// Home and End. Returns whether the key was one of them.
    public mutating func handle(_ event: KeyEvent, visibleRows: Int) -> Bool {
        let page = max(1, visibleRows - 1)
        switch event.key {
        case .up: moveSelection(by: -1)
        case .down: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -page)
        case .pageDown: moveSelection(by: page)
        case .home: select(0)
        case .end: select(count - 1)
        default: return false
        }
        scrollToSelection(visibleRows: visibleRows)
        return true
    }

    /// Scrolls the least needed to show the selected item in a window of `visibleRows` rows,
    /// and so that the window is not left half empty at the end of the list.
    public mutating func scrollToSelection(visibleRows: Int) {
        guard visibleRows > 0, count > 0 else {
            offset = 0
            return
        }
        if let selection {
            if selection < offset {
                offset = selection
            } else if selection >= offset + visibleRows {
                offset = selection - visibleRows + 1
            }
        }
        offset = max(0, min(offset, count - visibleRows))
    }

    /// The indices of the items shown in a window of `visibleRows` rows.
    public func visibleRange(visibleRows: Int) -> Range<Int> {
        let start = min(offset, count)
        return start..<min(count, start + max(0, visibleRows))
    }
}
