/// Why a request was abandoned before it settled (as `GCKRequestAbortReason`).
public struct CastRequestAbortReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 1: a newer request of the same kind replaced it.
    public static let replaced = CastRequestAbortReason(rawValue: 1)
    /// 2: the app cancelled it, or its session ended.
    public static let cancelled = CastRequestAbortReason(rawValue: 2)

    public var description: String {
        switch rawValue {
        case 1: "replaced"
        case 2: "cancelled"
        default: "reason \(rawValue)"
        }
    }
}
