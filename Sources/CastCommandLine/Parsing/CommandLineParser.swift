package import CastArguments

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

/// Splits a command line into a command and its typed arguments, with the package's one
/// argument parser (`CastArguments`): the global options, the command's name (one or two
/// words), then the command's options and arguments.
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
        let globals = ArgumentParser(
            program: "cast",
            options: CommandSpec.globalOptions + [.flag("version", help: "Show the version.")]
        )
        var index: Int
        do {
            index = try globals.parse(arguments, into: &parsed, stopAtPositional: true)
        } catch {
            throw CommandLineError(error, commandName: nil)
        }
        guard index < arguments.count else { return Invocation(command: nil, arguments: parsed) }
        let token = arguments[index]
        let candidates = commands.filter { $0.spec.path.first == token }
        guard !candidates.isEmpty else {
            throw CommandLineError(.unknownCommand, "cast: unknown command '\(token)'")
        }
        let command: any CastCommand.Type
        if index + 1 < arguments.count,
            let sub = candidates.first(where: { $0.spec.path.count == 2 && $0.spec.path[1] == arguments[index + 1] })
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
        let spec = command.spec
        do {
            try ArgumentParser(program: "cast \(spec.name)", options: spec.options + CommandSpec.globalOptions)
                .parse(arguments, from: index, into: &parsed)
        } catch {
            throw CommandLineError(error, commandName: spec.name)
        }
        return Invocation(command: command, arguments: parsed)
    }
}

extension CommandLineError {
    /// The command line's own error for a usage error of the shared parser.
    init(_ error: UsageError, commandName: String?) {
        let code: Code =
            switch error.code {
            case .unknownOption: .unknownOption
            case .missingValue: .missingValue
            case .missingArgument: .missingArgument
            case .unexpectedArgument: .unexpectedArgument
            case .unknownCommand: .unknownCommand
            default: .invalidValue
            }
        self.init(code, error.description, commandName: commandName)
    }
}
