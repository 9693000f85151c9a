import CastSync

/// The SDK's logger (as `GCKLogger`): a filter and a pluggable sink.
///
/// Nothing is logged until the app sets a ``sink`` (as `GCKLogger.delegate`; a
/// ``CastFileLogSink`` for `fileLoggingEnabled`, a ``PrintLogSink`` for console logging).
/// Each ``CastContext`` logs through the logger in its options, and so do the widgets made
/// for that context; ``shared`` exists for apps that want one logger everywhere.
///
/// Every component logs at the levels GCK uses: ``CastLogLevel/verbose`` for message
/// traffic, ``CastLogLevel/debug`` for steps, ``CastLogLevel/info`` for lifecycle events,
/// ``CastLogLevel/warning`` for problems the SDK recovered from and
/// ``CastLogLevel/error`` for failures the app hears about.
///
/// ```swift
/// let logger = CastLogger()
/// logger.filter = CastLogFilter(minimumLevel: .info)
/// logger.sink = PrintLogSink()
/// ```
public final class CastLogger: Sendable {
    private struct State {
        var sink: (any CastLogSink)?
        var filter = CastLogFilter()
    }

    private let state = Locked(State())

    /// A logger shared by contexts that are given no other; silent until a sink is set.
    public static let shared = CastLogger()

    /// Creates a silent logger.
    public init() {}

    /// Where messages go; `nil` (the default) logs nothing.
    public var sink: (any CastLogSink)? {
        get { state.withLock { $0.sink } }
        set { state.withLock { $0.sink = newValue } }
    }

    /// Which messages pass.
    public var filter: CastLogFilter {
        get { state.withLock { $0.filter } }
        set { state.withLock { $0.filter = newValue } }
    }

    /// Whether a message of `level` from `component` would reach the sink.
    public func isEnabled(_ level: CastLogLevel, for component: CastLogComponent) -> Bool {
        state.withLock { $0.sink != nil && $0.filter.allows(level, from: component) }
    }

    /// Logs a message; `message` and `metadata` are evaluated only when the message passes.
    public func log(
        _ level: CastLogLevel,
        _ component: CastLogComponent,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> [String: String] = [:],
        function: String = #function,
        file: String = #fileID,
        line: Int = #line
    ) {
        let (sink, filter) = state.withLock { state in
            (state.filter.allows(level, from: component) ? state.sink : nil, state.filter)
        }
        guard let sink else { return }
        let text = message()
        guard filter.allows(level, from: component, function: function, message: text) else { return }
        sink.log(
            CastLogEntry(
                level: level,
                component: component,
                message: text,
                metadata: metadata(),
                function: function,
                location: "\(file):\(line)"
            )
        )
    }
}

/// A sink that prints `location: function - message` lines, as in the codelab.
public struct PrintLogSink: CastLogSink {
    /// Creates the sink.
    public init() {}

    public func log(_ entry: CastLogEntry) {
        var line = "\(entry.location): \(entry.function) - \(entry.message)"
        if !entry.metadata.isEmpty {
            line +=
                " " + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        print(line)
    }
}
