import CastSync

/// The SDK's logger (as `GCKLogger`): a level filter and a pluggable sink.
///
/// Nothing is logged until the app sets a ``sink``. Each ``CastContext`` logs through the
/// logger in its options; ``shared`` exists for apps that want one logger everywhere.
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
        let sink = state.withLock { state in state.filter.allows(level, from: component) ? state.sink : nil }
        guard let sink else { return }
        sink.log(
            CastLogEntry(
                level: level,
                component: component,
                message: message(),
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
