/// One command's arguments after parsing: options with values, flags and positionals.
public struct ParsedArguments: Sendable, Hashable {
    /// Values of options, by long name without dashes (`title`), in command-line order.
    public var values: [String: [String]] = [:]
    /// Flags given, by long name without dashes (`json`).
    public var flags: Set<String> = []
    /// Positional arguments in order.
    public var positionals: [String] = []

    /// Creates an empty value.
    public init() {}

    /// The last value of an option.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
