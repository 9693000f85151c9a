/// An option a command accepts.
package struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes, such as `title`.
    package var name: String
    /// A one-letter alias without the dash, such as `t`.
    package var short: Character?
    /// The value's placeholder (`T`), or `nil` for a flag.
    package var valueName: String?
    /// One line of help.
    package var help: String

    /// An option taking a value.
    package static func value(_ name: String, _ valueName: String, short: Character? = nil, help: String) -> OptionSpec
    {
        OptionSpec(name: name, short: short, valueName: valueName, help: help)
    }

    /// A flag.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    var display: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}

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
        var lines = ["cast \(name) — \(summary)", ""]
        lines.append("USAGE: cast \(name)\(arguments.isEmpty ? "" : " " + arguments) [options]")
        if !discussion.isEmpty {
            lines += ["", discussion]
        }
        let all = options + Self.globalOptions
        lines += ["", "OPTIONS:"]
        let width = all.map(\.display.count).max() ?? 0
        for option in all {
            let padding = String(repeating: " ", count: width - option.display.count)
            lines.append("  \(option.display)\(padding)  \(option.help)")
        }
        if !examples.isEmpty {
            lines += ["", "EXAMPLES:"]
            lines += examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
