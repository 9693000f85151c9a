/// Something a virtual device reports for its operator: a dropped message, a refused request,
/// the credentials an app received, ...
///
/// Messages are constant strings; the details are in ``metadata`` under keys such as
/// `cast.connection`, `cast.source-id`, `cast.destination-id`, `cast.namespace` and
/// `cast.reason`.
public struct DeviceLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// How much the entry matters.
    public enum Level: Int, Hashable, Comparable, Sendable, CustomStringConvertible {
        /// Routine protocol detail.
        case debug
        /// A notable event, e.g. an app launched with credentials.
        case info
        /// Bad input from a sender, e.g. malformed JSON or a message without a virtual connection.
        case warning

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            }
        }
    }

    /// How much the entry matters.
    public var level: Level
    /// A constant message, e.g. `message dropped`.
    public var message: String
    /// Details of the event.
    public var metadata: [String: String]

    /// Creates an entry.
    public init(level: Level, message: String, metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }

    public var description: String {
        let details = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return details.isEmpty ? "[\(level)] \(message)" : "[\(level)] \(message) \(details)"
    }
}
