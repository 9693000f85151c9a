/// One command's arguments after parsing: options with values, flags and positionals.
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

    /// Whether a flag was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }
}
