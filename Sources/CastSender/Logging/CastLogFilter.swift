/// Decides which log messages reach the sink (as `GCKLoggerFilter`): a minimum level for
/// everything, and rules that give their own minimum level to components, to functions and
/// to messages matching patterns.
///
/// A message is judged by the most specific rule that matches it: a function rule, else a
/// message-pattern rule, else its component's rule. A matching rule lets the message through
/// when its level is at least the rule's. A message no rule matches passes at
/// ``minimumLevel``, unless the filter is ``exclusive``, which drops it.
///
/// ```swift
/// var filter = CastLogFilter(minimumLevel: .warning)
/// filter.setMinimumLevel(.verbose, for: [.discovery, .media, .channel])
/// filter.setMinimumLevel(.debug, forFunctions: ["load(_:)"])
/// try filter.addMessagePatterns(["^session"], caseInsensitive: true, minimumLevel: .info)
/// ```
public struct CastLogFilter: Sendable, Hashable {
    /// The level below which messages that no rule matches are dropped.
    public var minimumLevel: CastLogLevel
    /// When `true`, messages that no rule matches are dropped whatever their level.
    public var exclusive: Bool
    private var levels: [CastLogComponent: CastLogLevel] = [:]
    private var functionRules: [FunctionRule] = []
    private var messageRules: [MessageRule] = []

    /// Creates a filter.
    public init(minimumLevel: CastLogLevel = .verbose, exclusive: Bool = false) {
        self.minimumLevel = minimumLevel
        self.exclusive = exclusive
    }

    /// Sets the minimum level of `components` (as `setLoggingLevel:forClasses:`).
    public mutating func setMinimumLevel(_ level: CastLogLevel, for components: [CastLogComponent]) {
        for component in components { levels[component] = level }
    }

    /// Adds components whose messages pass from `minimumLevel` on (as
    /// `addClassNames:minimumLogLevel:`); with ``exclusive`` set, only listed sources pass.
    public mutating func addComponents(_ components: [CastLogComponent], minimumLevel: CastLogLevel = .verbose) {
        setMinimumLevel(minimumLevel, for: components)
    }

    /// Sets the minimum level of messages logged by `functions` (as
    /// `setLoggingLevel:forFunctions:`). A name is a function as Swift's `#function` spells
    /// it (`load(_:)`, `startSession(with:host:port:)`); `*` stands for any run of
    /// characters (`queue*`).
    public mutating func setMinimumLevel(_ level: CastLogLevel, forFunctions functions: [String]) {
        for name in functions where !name.isEmpty {
            functionRules.removeAll { $0.pattern == name }
            functionRules.append(FunctionRule(pattern: name, level: level))
        }
    }

    /// Adds functions whose messages pass from `minimumLevel` on (as
    /// `addFunctionNames:minimumLogLevel:`).
    public mutating func addFunctions(_ functions: [String], minimumLevel: CastLogLevel = .verbose) {
        setMinimumLevel(minimumLevel, forFunctions: functions)
    }

    /// Adds regular expressions; a message whose text matches one of them passes from
    /// `minimumLevel` on (as `addMessagePatterns:caseInsensitive:`).
    /// - Throws: ``CastLogFilterError`` naming the first pattern that is not a valid
    ///   regular expression; the filter is then unchanged.
    public mutating func addMessagePatterns(
        _ patterns: [String],
        caseInsensitive: Bool = false,
        minimumLevel: CastLogLevel = .verbose
    ) throws(CastLogFilterError) {
        var added: [MessageRule] = []
        for pattern in patterns {
            added.append(try MessageRule(pattern: pattern, caseInsensitive: caseInsensitive, level: minimumLevel))
        }
        messageRules += added
    }

    /// Removes every rule (as `reset`); the minimum level and ``exclusive`` stay.
    public mutating func reset() {
        levels.removeAll()
        functionRules.removeAll()
        messageRules.removeAll()
    }

    /// Whether a message of `level` from `component` passes, judged without its function
    /// and text: `true` when some rule could let it through. The logger uses it to skip
    /// building messages nobody will see.
    public func allows(_ level: CastLogLevel, from component: CastLogComponent) -> Bool {
        guard level > .none else { return false }
        let lowestRule = (functionRules.map(\.level) + messageRules.map(\.level)).filter { $0 > .none }.min()
        if let lowestRule, level >= lowestRule { return true }
        if let own = levels[component] { return own > .none && level >= own }
        return passesUnmatched(level)
    }

    /// Whether a message passes, judged by every rule.
    /// - Parameters:
    ///   - level: the message's level.
    ///   - component: where it comes from.
    ///   - function: the function that logged it (`#function`).
    ///   - message: its text.
    public func allows(
        _ level: CastLogLevel,
        from component: CastLogComponent,
        function: String,
        message: String
    ) -> Bool {
        guard level > .none else { return false }
        if let rule = functionRules.last(where: { $0.matches(function) }) { return rule.allows(level) }
        if let rule = messageRules.first(where: { $0.matches(message) }) { return rule.allows(level) }
        if let own = levels[component] { return own > .none && level >= own }
        return passesUnmatched(level)
    }

    /// Whether judging a message needs its text (some message pattern is set).
    var needsMessageText: Bool { !messageRules.isEmpty }

    private func passesUnmatched(_ level: CastLogLevel) -> Bool {
        !exclusive && minimumLevel > .none && level >= minimumLevel
    }
}

/// A function rule: a name with `*` wildcards and a level.
private struct FunctionRule: Sendable, Hashable {
    let pattern: String
    let level: CastLogLevel

    func allows(_ level: CastLogLevel) -> Bool { self.level > .none && level >= self.level }

    func matches(_ function: String) -> Bool {
        Glob.matches(Array(pattern.unicodeScalars), Array(function.unicodeScalars))
    }
}

/// A message rule: a compiled regular expression and a level. Two rules are equal when their
/// sources, case sensitivity and levels are.
private struct MessageRule: Sendable, Hashable {
    let pattern: String
    let caseInsensitive: Bool
    let level: CastLogLevel
    private let regex: RegexBox

    init(pattern: String, caseInsensitive: Bool, level: CastLogLevel) throws(CastLogFilterError) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.level = level
        do {
            let compiled = try Regex(pattern)
            regex = RegexBox(caseInsensitive ? compiled.ignoresCase() : compiled)
        } catch {
            throw CastLogFilterError(pattern: pattern, reason: "\(error)")
        }
    }

    func allows(_ level: CastLogLevel) -> Bool { self.level > .none && level >= self.level }

    func matches(_ message: String) -> Bool { regex.matches(message) }

    static func == (lhs: MessageRule, rhs: MessageRule) -> Bool {
        lhs.pattern == rhs.pattern && lhs.caseInsensitive == rhs.caseInsensitive && lhs.level == rhs.level
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(caseInsensitive)
        hasher.combine(level)
    }
}

/// Holds a compiled regular expression, which is immutable once built.
private final class RegexBox: @unchecked Sendable {
    // @unchecked Sendable: the regex is never changed after init and matching does not
    // mutate it.
    private let regex: Regex<AnyRegexOutput>

    init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }

    func matches(_ text: String) -> Bool { text.contains(regex) }
}

/// `*` wildcard matching over Unicode scalars, without backtracking blow-up.
private enum Glob {
    static func matches(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] != "*", pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

/// A message pattern given to ``CastLogFilter/addMessagePatterns(_:caseInsensitive:minimumLevel:)``
/// is not a valid regular expression.
public struct CastLogFilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern at fault.
    public let pattern: String
    /// Why it was refused.
    public let reason: String

    public var description: String { "log message pattern \"\(pattern)\" is not a valid regular expression: \(reason)" }
}
