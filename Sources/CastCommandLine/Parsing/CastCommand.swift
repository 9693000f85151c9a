package import CastArguments

/// One `cast` command: parsed into a typed value, validated, then run.
package protocol CastCommand: Sendable {
    /// The command's name, options and help.
    static var spec: CommandSpec { get }
    /// Builds the command from its parsed arguments.
    /// - Throws: ``CommandLineError`` (a usage error) when an argument is missing or malformed.
    init(parsing arguments: ParsedArguments) throws(CommandLineError)
    /// Checks the values together before anything touches the network.
    func validate() throws(CommandLineError)
    /// Does the work.
    func run(in runtime: CommandRuntime) async throws
}

extension CastCommand {
    package func validate() throws(CommandLineError) {}
}

extension ParsedArguments {
    /// The positionals, checked against a count range.
    func positionals(
        _ range: ClosedRange<Int>,
        for spec: CommandSpec,
        names: String
    ) throws(CommandLineError) -> [String] {
        if positionals.count < range.lowerBound {
            throw CommandLineError(.missingArgument, "cast \(spec.name): missing \(names)", commandName: spec.name)
        }
        if positionals.count > range.upperBound {
            let extra = positionals[range.upperBound]
            throw CommandLineError(
                .unexpectedArgument,
                "cast \(spec.name): unexpected argument '\(extra)'",
                commandName: spec.name
            )
        }
        return positionals
    }

    /// A number option, checked.
    func double(_ name: String, for spec: CommandSpec) throws(CommandLineError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw CommandLineError(
                .invalidValue,
                "cast \(spec.name): --\(name) expects a number, got '\(text)'",
                commandName: spec.name
            )
        }
        return number
    }
}
