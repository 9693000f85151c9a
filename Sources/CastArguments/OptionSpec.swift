/// An option a program or command takes: a flag (`--json`), or an option with a value
/// (`--title T`, `--title=T`), with a one-letter alias where it has one (`-d`).
package struct OptionSpec: Sendable, Hashable {
    /// How the option takes a value.
    package enum Value: Sendable, Hashable {
        /// A flag: no value.
        case none
        /// A value, always: the next argument, or the text after `=`.
        case required(String)
        /// A value when one follows: the text after `=`, or the next argument unless it
        /// starts with `-`; alone, the option stands for an empty value.
        case optional(String)
    }

    /// The long name without dashes, such as `title`.
    package var name: String
    /// A one-letter alias without the dash, such as `d`.
    package var short: Character?
    /// How it takes a value.
    package var value: Value
    /// One line of help.
    package var help: String

    /// An option taking a value, shown as `valueName` in help.
    package static func value(_ name: String, _ valueName: String, short: Character? = nil, help: String) -> OptionSpec
    {
        OptionSpec(name: name, short: short, value: .required(valueName), help: help)
    }

    /// An option whose value may be left out.
    package static func optionalValue(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, short: nil, value: .optional(valueName), help: help)
    }

    /// A flag.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, value: .none, help: help)
    }

    /// The placeholder of its value, if it takes one.
    package var valueName: String? {
        switch value {
        case .none: nil
        case .required(let name): name
        case .optional(let name): name
        }
    }

    /// `-d, --device NAME` as the help's left column shows it.
    package var display: String {
        var text = short.map { "-\($0), " } ?? "    "
        text += "--\(name)"
        switch value {
        case .none: break
        case .required(let name): text += " \(name)"
        case .optional(let name): text += " [\(name)]"
        }
        return text
    }
}
