/// The severity of a log message, numbered as `GCKLoggerLevel`.
public struct CastLogLevel: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 0: nothing is logged at this level; as a minimum level it turns logging off.
    public static let none = CastLogLevel(rawValue: 0)
    /// 1: every detail, including message traffic.
    public static let verbose = CastLogLevel(rawValue: 1)
    /// 2: debugging details.
    public static let debug = CastLogLevel(rawValue: 2)
    /// 3: notable events such as a session starting.
    public static let info = CastLogLevel(rawValue: 3)
    /// 4: something unexpected that the SDK recovered from.
    public static let warning = CastLogLevel(rawValue: 4)
    /// 5: an operation failed.
    public static let error = CastLogLevel(rawValue: 5)
    /// 6: an internal invariant did not hold.
    public static let assert = CastLogLevel(rawValue: 6)

    public static func < (lhs: CastLogLevel, rhs: CastLogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch rawValue {
        case 0: "none"
        case 1: "verbose"
        case 2: "debug"
        case 3: "info"
        case 4: "warning"
        case 5: "error"
        case 6: "assert"
        default: "level\(rawValue)"
        }
    }
}
