package import CastArguments

/// What a command is called, takes and does: drives parsing and help text.
package struct CommandSpec: Sendable, Hashable {
    /// The words naming the command, such as `["queue", "add"]`.
    package var path: [String]
    /// One line saying what the command does.
    package var summary: String
    /// The arguments after the command's name, as shown in the usage line.
    package var arguments: String
    /// A paragraph of detail, if any.
    package var discussion: String
    /// The options the command takes besides the global ones.
    package var options: [OptionSpec]
    /// Example invocations.
    package var examples: [String]

    /// Creates a spec.
    package init(
        path: [String],
        summary: String,
        arguments: String = "",
        discussion: String = "",
        options: [OptionSpec] = [],
        examples: [String] = []
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.discussion = discussion
        self.options = options
        self.examples = examples
    }

    /// The command's name as typed, such as `queue add`.
    package var name: String { path.joined(separator: " ") }

    /// The options every command accepts.
    package static let globalOptions: [OptionSpec] = [
        .value("device", "NAME|HOST[:PORT]", short: "d", help: "The device: a friendly name (prefix), or an address."),
        .value("interface", "IF", help: "Discover on this interface (repeatable); else CAST_DISCOVERY_INTERFACES."),
        .value(
            "trust-root",
            "FILE",
            help: "Also trust device roots from this PEM file (repeatable); else CAST_TRUST_ROOTS."
        ),
        .flag("insecure", help: "Accept devices that do not authenticate (as curl -k); else CAST_INSECURE=1."),
        .flag("help", short: "h", help: "Show help for the command."),
    ]

    /// The full help text.
    package var helpText: String {
        HelpText(
            program: "cast \(name)",
            summary: summary,
            usage: arguments.isEmpty ? "[options]" : "\(arguments) [options]",
            discussion: discussion.isEmpty ? [] : [discussion],
            options: options + Self.globalOptions,
            sections: examples.isEmpty ? [] : [HelpText.Section("EXAMPLES", examples)]
        ).text
    }
}
