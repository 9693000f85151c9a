/// Typed values of options, checked where they enter: a value that does not parse or is out
/// of range is a ``UsageError`` naming the option and the range.
extension ParsedArguments {
    /// A whole number option within `range`, or `nil` when not given.
    package func integer(
        _ name: String,
        in range: ClosedRange<Int>,
        program: String
    ) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                .invalidValue,
                program: program,
                "--\(name): \"\(text)\" is not a number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return number
    }

    /// A finite number option within `range`, or `nil` when not given.
    package func number(
        _ name: String,
        in range: ClosedRange<Double>,
        program: String
    ) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                .invalidValue,
                program: program,
                "--\(name): \"\(text)\" is not a number from \(Self.format(range.lowerBound)) to "
                    + "\(Self.format(range.upperBound))"
            )
        }
        return number
    }

    /// A port option (0 to 65535), or `nil` when not given.
    package func port(_ name: String, program: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw UsageError(.invalidValue, program: program, "--\(name): \"\(text)\" is not a port from 0 to 65535")
        }
        return port
    }

    /// An option whose value is one of `choices`, or `nil` when not given.
    package func choice(_ name: String, from choices: [String], program: String) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            let listed =
                choices.count > 1
                ? choices.dropLast().joined(separator: ", ") + " or " + choices[choices.count - 1]
                : choices.joined()
            throw UsageError(.invalidValue, program: program, "--\(name): \"\(text)\" is not \(listed)")
        }
        return text
    }

    /// A value option that must not be empty, or `nil` when not given.
    package func nonEmpty(_ name: String, program: String) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard !text.isEmpty else { throw UsageError(.missingValue, program: program, "--\(name) must not be empty") }
        return text
    }

    /// `1`, `0.5`, `3600` without a trailing `.0`.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
