/// A size in terminal cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a size; negative values are clamped to zero.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// A size with no cells.
    public static let zero = Size(width: 0, height: 0)

    /// The number of cells.
    public var area: Int { width * height }

    public var description: String { "\(width)x\(height)" }
}
