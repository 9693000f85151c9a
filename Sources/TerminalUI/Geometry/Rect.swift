/// A rectangle of cells: an origin (its top-left cell) and a size.
///
/// Rectangles describe the regions that layout hands to each part of a screen. A rectangle
/// with no width or no height is empty, and drawing into it does nothing.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left cell.
    public var origin: Point
    /// The number of columns and rows.
    public var size: Size

    /// Creates a rectangle from an origin and a size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its left column, top row, width and height.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The left column.
    public var x: Int { origin.x }
    /// The top row.
    public var y: Int { origin.y }
    /// The number of columns.
    public var width: Int { size.width }
    /// The number of rows.
    public var height: Int { size.height }
    /// The column just right of the rectangle.
    public var maxX: Int { origin.x + size.width }
    /// The row just below the rectangle.
    public var maxY: Int { origin.y + size.height }
    /// Whether the rectangle holds no cell.
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// Whether a cell lies inside the rectangle.
    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The cells common to both rectangles (empty, at the clamped origin, when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by the given margins on each side (never below an empty size).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(
            x: x + left,
            y: y + top,
            width: size.width - left - right,
            height: size.height - top - bottom
        )
    }

    /// The rectangle shrunk by `amount` on every side.
    public func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// A rectangle of the given size centred in this one (clamped to fit inside it).
    ///
    /// When the free space is odd, the extra column or row goes to the right or bottom.
    public func centered(_ inner: Size) -> Rect {
        let width = min(inner.width, size.width)
        let height = min(inner.height, size.height)
        return Rect(x: x + (size.width - width) / 2, y: y + (size.height - height) / 2, width: width, height: height)
    }

    /// The row at `offset` from the top, one cell high (empty when outside the rectangle).
    public func row(_ offset: Int) -> Rect {
        guard offset >= 0, offset < size.height else { return Rect(x: x, y: y + offset, width: 0, height: 0) }
        return Rect(x: x, y: y + offset, width: size.width, height: 1)
    }

    public var description: String { "\(origin) \(size)" }
}
