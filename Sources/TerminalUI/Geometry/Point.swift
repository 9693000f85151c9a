/// A cell position on the screen: `x` is the column and `y` the row, both counted from 0
/// at the top-left corner.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The column, from 0 at the left edge.
    public var x: Int
    /// The row, from 0 at the top edge.
    public var y: Int

    /// Creates a position from a column and a row.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The top-left corner.
    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}
