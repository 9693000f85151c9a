/// Reads a command line against the options a program takes: `--name VALUE`, `--name=VALUE`,
/// `-n VALUE`, flags, positional arguments, `--` (everything after it is positional) and
/// signed numbers (`-10`, `+1:30`) as positionals rather than options.
package struct ArgumentParser: Sendable {
    /// The program (or `program command`) named in errors.
    package var program: String
    /// The options it takes.
    package var options: [OptionSpec]

    /// Creates a parser.
    package init(program: String, options: [OptionSpec]) {
        self.program = program
        self.options = options
    }

    /// Parses `arguments` (without the program's name) into `parsed`.
    ///
    /// - Parameter stopAtPositional: stop at the first positional argument (a command's name)
    ///   and return its index, leaving it and the rest unread.
    /// - Returns: the index of the first argument not read (`arguments.endIndex` when all were).
    /// - Throws: ``UsageError`` naming the option at fault.
    @discardableResult
    package func parse(
        _ arguments: [String],
        from start: Int = 0,
        into parsed: inout ParsedArguments,
        stopAtPositional: Bool = false
    ) throws(UsageError) -> Int {
        var index = start
        var onlyPositionals = false
        while index < arguments.count {
            let token = arguments[index]
            if onlyPositionals || !token.hasPrefix("-") || token == "-" || Self.looksNumeric(token) {
                if stopAtPositional { return index }
                parsed.positionals.append(token)
                index += 1
            } else if token == "--" {
                onlyPositionals = true
                index += 1
            } else {
                index = try consumeOption(at: index, in: arguments, into: &parsed)
            }
        }
        return index
    }

    /// Parses a whole command line into a new value.
    package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        try parse(arguments, into: &parsed)
        return parsed
    }

    /// Reads one option (and its value) at `index`; returns the next index.
    private func consumeOption(
        at index: Int,
        in arguments: [String],
        into parsed: inout ParsedArguments
    ) throws(UsageError) -> Int {
        let token = arguments[index]
        var inlineValue: String?
        let option: OptionSpec?
        if token.hasPrefix("--") {
            var name = token.dropFirst(2)
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            option = options.first { $0.name == name }
        } else {
            let name = token.dropFirst()
            option = name.count == 1 ? options.first { $0.short == name.first } : nil
        }
        guard let option else {
            throw UsageError(.unknownOption, program: program, "unknown option '\(token)'")
        }
        switch option.value {
        case .none:
            if inlineValue != nil {
                throw UsageError(.invalidValue, program: program, "--\(option.name) takes no value")
            }
            parsed.flags.insert(option.name)
            return index + 1
        case .required(let valueName):
            if let inlineValue {
                guard !inlineValue.isEmpty else {
                    throw UsageError(.missingValue, program: program, "--\(option.name)= needs a value (\(valueName))")
                }
                parsed.values[option.name, default: []].append(inlineValue)
                return index + 1
            }
            guard index + 1 < arguments.count else {
                throw UsageError(.missingValue, program: program, "--\(option.name) needs a value (\(valueName))")
            }
            parsed.values[option.name, default: []].append(arguments[index + 1])
            return index + 2
        case .optional(let valueName):
            if let inlineValue {
                // `--name=` says a value follows, so an empty one is a mistake, not the bare option.
                guard !inlineValue.isEmpty else {
                    throw UsageError(.missingValue, program: program, "--\(option.name)= needs a value (\(valueName))")
                }
                parsed.values[option.name, default: []].append(inlineValue)
                return index + 1
            }
            if index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") {
                parsed.values[option.name, default: []].append(arguments[index + 1])
                return index + 2
            }
            parsed.values[option.name, default: []].append("")
            return index + 1
        }
    }

    /// `-10`, `+1:30`, `-0.5`: a signed number or position, not an option.
    package static func looksNumeric(_ token: String) -> Bool {
        guard let first = token.first, first == "-" || first == "+" else { return false }
        let rest = token.dropFirst()
        guard let digit = rest.first, digit.isASCII, digit.isNumber else { return false }
        return rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ":" || $0 == ".") }
    }
}
