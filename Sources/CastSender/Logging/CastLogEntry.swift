/// One log message handed to a ``CastLogSink``.
public struct CastLogEntry: Sendable, Hashable {
    /// The severity.
    public var level: CastLogLevel
    /// Where in the SDK it comes from.
    public var component: CastLogComponent
    /// A constant message such as `"session started"`.
    public var message: String
    /// Details such as `cast.request-id`; credentials never appear in clear.
    public var metadata: [String: String]
    /// The function that logged.
    public var function: String
    /// `file:line` of the call.
    public var location: String

    /// Creates an entry.
    public init(
        level: CastLogLevel,
        component: CastLogComponent,
        message: String,
        metadata: [String: String] = [:],
        function: String = "",
        location: String = ""
    ) {
        self.level = level
        self.component = component
        self.message = message
        self.metadata = metadata
        self.function = function
        self.location = location
    }
}

/// Receives the log messages that pass the filter (as `GCKLoggerDelegate`).
public protocol CastLogSink: Sendable {
    /// Handles one message; called in order on the logger's queue.
    func log(_ entry: CastLogEntry)
}
