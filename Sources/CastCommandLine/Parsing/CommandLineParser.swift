/// The result of parsing a whole command line.
package struct Invocation: Sendable {
    /// The command, or `nil` when only `--help` or `--version` was given.
    package var command: (any CastCommand.Type)?
    /// The command's arguments, global options included.
    package var arguments: ParsedArguments
    /// `--help` / `-h` was given.
    package var wantsHelp: Bool { arguments.has("help") }
    /// `--version` was given.
    package var wantsVersion: Bool { arguments.has("version") }
}

/// Splits a command line into a command and its typed arguments.
package struct CommandLineParser: Sendable {
    /// The commands to choose from.
    package var commands: [any CastCommand.Type]

    /// Creates a parser over `commands`.
    package init(commands: [any CastCommand.Type] = CommandRegistry.all) {
        self.commands = commands
    }

    /// Parses `arguments` (without the program name).
    /// - Throws: ``CommandLineError`` with a usage code.
    package func parse(_ arguments: [String]) throws(CommandLineError) -> Invocation {
        var parsed = ParsedArguments()
        var index = 0
        var command: (any CastCommand.Type)?
        while index < arguments.count, command == nil {
            let token = arguments[index]
            if token == "--version" {
                parsed.flags.insert("version")
                index += 1
                continue
            }
            if token.hasPrefix("-") {
                index = try consumeOption(
                    at: index,
                    in: arguments,
                    options: CommandSpec.globalOptions,
                    into: &parsed,
                    commandName: nil
                )
                continue
            }
            let candidates = commands.filter { $0.spec.path.first == token }
            guard !candidates.isEmpty else {
                throw CommandLineError(.unknownCommand, "cast: unknown command '\(token)'; see 'cast --help'")
            }
            if index + 1 < arguments.count,
                let sub = candidates.first(where: { $0.spec.path.count == 2 && $0.spec.path[1] == arguments[index + 1] }
                )
            {
                command = sub
                index += 2
            } else if let single = candidates.first(where: { $0.spec.path.count == 1 }) {
                command = single
                index += 1
            } else {
                let names = candidates.map { $0.spec.path[1] }.joined(separator: ", ")
                throw CommandLineError(.missingArgument, "cast \(token): expected one of: \(names)")
            }
        }
        guard let command else {
            return Invocation(command: nil, arguments: parsed)
        }
        let spec = command.spec
        let options = spec.options + CommandSpec.globalOptions
        var onlyPositionals = false
        while index < arguments.count {
            let token = arguments[index]
            if onlyPositionals || !token.hasPrefix("-") || token == "-" || Self.looksNumeric(token) {
                parsed.positionals.append(token)
                index += 1
            } else if token == "--" {
                onlyPositionals = true
                index += 1
            } else {
                index = try consumeOption(
                    at: index,
                    in: arguments,
                    options: options,
                    into: &parsed,
                    commandName: spec.name
                )
            }
        }
        return Invocation(command: command, arguments: parsed)
    }

    /// Reads one option (and its value) at `index`; returns the next index.
    private func consumeOption(
        at index: Int,
        in arguments: [String],
        options: [OptionSpec],
        into parsed: inout ParsedArguments,
        commandName: String?
    ) throws(CommandLineError) -> Int {
        let token = arguments[index]
        let prefix = commandName.map { "cast \($0)" } ?? "cast"
        var name: Substring
        var inlineValue: String?
        let option: OptionSpec?
        if token.hasPrefix("--") {
            name = token.dropFirst(2)
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            option = options.first { $0.name == name }
        } else {
            name = token.dropFirst()
            option = name.count == 1 ? options.first { $0.short == name.first } : nil
        }
        guard let option else {
            throw CommandLineError(.unknownOption, "\(prefix): unknown option '\(token)'", commandName: commandName)
        }
        guard option.valueName != nil else {
            if inlineValue != nil {
                throw CommandLineError(
                    .invalidValue,
                    "\(prefix): --\(option.name) takes no value",
                    commandName: commandName
                )
            }
            parsed.flags.insert(option.name)
            return index + 1
        }
        if let inlineValue {
            parsed.values[option.name, default: []].append(inlineValue)
            return index + 1
        }
        guard index + 1 < arguments.count else {
            throw CommandLineError(
                .missingValue,
                "\(prefix): --\(option.name) needs a value (\(option.valueName ?? "VALUE"))",
                commandName: commandName
            )
        }
        parsed.values[option.name, default: []].append(arguments[index + 1])
        return index + 2
    }

    /// `-10`, `+1:30`, `-0.5`: a signed number or position, not an option.
    static func looksNumeric(_ token: String) -> Bool {
        guard let first = token.first, first == "-" || first == "+" else { return false }
        let rest = token.dropFirst()
        guard let digit = rest.first, digit.isASCII, digit.isNumber else { return false }
        return rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ":" || $0 == ".") }
    }
}
