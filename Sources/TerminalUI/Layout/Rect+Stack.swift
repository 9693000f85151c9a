extension Rect {
    /// Splits the rectangle into parts stacked top to bottom.
    ///
    /// - Parameters:
    ///   - sizes: The height of each part.
    ///   - spacing: Empty rows between neighbouring parts.
    /// - Returns: One rectangle per size, in order, each as wide as this one. Parts that got no
    ///   room are empty rectangles at the bottom edge.
    public func stackVertically(_ sizes: [LayoutSize], spacing: Int = 0) -> [Rect] {
        let lengths = Rect.distribute(height, among: sizes, spacing: spacing)
        var top = y
        return lengths.map { length in
            defer { top = min(maxY, top + length + spacing) }
            return Rect(x: x, y: top, width: width, height: length)
        }
    }

    /// Splits the rectangle into parts placed left to right.
    ///
    /// - Parameters:
    ///   - sizes: The width of each part.
    ///   - spacing: Empty columns between neighbouring parts.
    /// - Returns: One rectangle per size, in order, each as tall as this one. Parts that got
    ///   no room are empty rectangles at the right edge.
    public func stackHorizontally(_ sizes: [LayoutSize], spacing: Int = 0) -> [Rect] {
        let lengths = Rect.distribute(width, among: sizes, spacing: spacing)
        var left = x
        return lengths.map { length in
            defer { left = min(maxX, left + length + spacing) }
            return Rect(x: left, y: y, width: length, height: height)
        }
    }

    static func distribute(_ total: Int, among sizes: [LayoutSize], spacing: Int) -> [Int] {
        guard !sizes.isEmpty else { return [] }
        var remaining = max(0, total - max(0, spacing) * (sizes.count - 1))
        var lengths = Array(repeating: 0, count: sizes.count)
        var totalWeight = 0
        for (index, size) in sizes.enumerated() {
            switch size.storage {
            case .fixed(let length):
                lengths[index] = min(length, remaining)
                remaining -= lengths[index]
            case .flexible(let weight):
                totalWeight += weight
            }
        }
        guard totalWeight > 0 else { return lengths }
        var handedOut = 0
        for (index, size) in sizes.enumerated() {
            if case .flexible(let weight) = size.storage {
                lengths[index] = remaining * weight / totalWeight
                handedOut += lengths[index]
            }
        }
        var leftover = remaining - handedOut
        for (index, size) in sizes.enumerated() where leftover > 0 {
            if case .flexible = size.storage {
                lengths[index] += 1
                leftover -= 1
            }
        }
        return lengths
    }
}
