/// Decides which log messages reach the sink: a minimum level for everything, and
/// optional minimum levels per component (as `GCKLoggerFilter`).
///
/// ```swift
/// var filter = CastLogFilter(minimumLevel: .warning)
/// filter.setMinimumLevel(.verbose, for: [.session, .media])
/// ```
public struct CastLogFilter: Sendable, Hashable {
    /// The level below which messages of components without their own level are dropped.
    public var minimumLevel: CastLogLevel
    /// When `true`, only components with their own level are logged.
    public var exclusive: Bool
    private var levels: [CastLogComponent: CastLogLevel] = [:]

    /// Creates a filter.
    public init(minimumLevel: CastLogLevel = .verbose, exclusive: Bool = false) {
        self.minimumLevel = minimumLevel
        self.exclusive = exclusive
    }

    /// Sets the minimum level of `components`.
    public mutating func setMinimumLevel(_ level: CastLogLevel, for components: [CastLogComponent]) {
        for component in components { levels[component] = level }
    }

    /// Removes the per-component levels.
    public mutating func reset() {
        levels.removeAll()
    }

    /// Whether a message of `level` from `component` passes.
    public func allows(_ level: CastLogLevel, from component: CastLogComponent) -> Bool {
        guard level > .none else { return false }
        if let own = levels[component] { return own > .none && level >= own }
        return !exclusive && minimumLevel > .none && level >= minimumLevel
    }
}
