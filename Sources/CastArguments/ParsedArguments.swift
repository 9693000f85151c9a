/// A command line after parsing: options with their values, flags and positional arguments.
package struct ParsedArguments: Sendable, Hashable {
    /// Values of options, by long name without dashes (`title`), in command-line order.
    package var values: [String: [String]] = [:]
    /// Flags given, by long name without dashes (`json`).
    package var flags: Set<String> = []
    /// Positional arguments in order.
    package var positionals: [String] = []

    /// Creates an empty value.
    package init() {}

    /// The last value of an option.
    package func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    package func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Whether the option was given, with a value or as a flag.
    package func contains(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
}
