/// How much of a stack's length one of its parts takes.
///
/// Fixed parts get their length first, in order, as long as there is room; flexible parts
/// share what is left in proportion to their weights.
public struct LayoutSize: Hashable, Sendable {
    enum Storage: Hashable, Sendable {
        case fixed(Int)
        case flexible(weight: Int)
    }

    let storage: Storage

    /// Exactly `length` rows or columns (less when the stack is too small).
    public static func fixed(_ length: Int) -> LayoutSize {
        LayoutSize(storage: .fixed(max(0, length)))
    }

    /// A share of the space left by the fixed parts, in proportion to `weight`.
    public static func flexible(weight: Int) -> LayoutSize {
        LayoutSize(storage: .flexible(weight: max(1, weight)))
    }

    /// A share of weight 1 of the space left by the fixed parts.
    public static let flexible = flexible(weight: 1)
}
